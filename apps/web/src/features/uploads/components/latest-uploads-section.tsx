import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { Section } from '@/components/section';
import { paths } from '@/lib/paths';

/**
 * Home: the team's latest uploads (18, spec §9).
 * TODO(uploads issue): load GET /api/upload/latest/18 and show upload tiles; the empty state
 * below stays for a workspace without uploads.
 */
export function LatestUploadsSection() {
  return (
    <Section title="Latest uploads">
      <EmptyState
        icon={<PhotoLibraryOutlined />}
        message="No uploads yet"
        description="Photos uploaded to any project appear here."
        action={
          <Button
            component={RouterLink}
            to={paths.uploaderChoose}
            variant="contained"
            startIcon={<CloudUploadOutlined />}
          >
            Upload
          </Button>
        }
      />
    </Section>
  );
}
