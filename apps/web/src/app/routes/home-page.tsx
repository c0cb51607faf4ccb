import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@/components/visually-hidden';
import { BookmarksSection } from '@/features/projects/components/bookmarks-section';
import { LatestUploadsSection } from '@/features/uploads/components/latest-uploads-section';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Home: Bookmarks, then Latest uploads (spec §2). */
export function HomePage() {
  useDocumentTitle('Home');
  return (
    <>
      <Typography variant="h1" sx={visuallyHidden}>
        Home
      </Typography>
      <BookmarksSection />
      <LatestUploadsSection />
    </>
  );
}
