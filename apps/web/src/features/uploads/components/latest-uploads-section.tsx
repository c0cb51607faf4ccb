import { limits } from '@sitelog/shared';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { Section } from '@/components/section';
import { paths } from '@/lib/paths';
import { useLatestUploads } from '../api/get-latest-uploads';
import { NoUploads } from './no-uploads';
import { UploadsFeed } from './uploads-feed';

/** Home: the team's latest uploads (18, spec §9). */
export function LatestUploadsSection() {
  const query = useLatestUploads(limits.latestUploadsHome);
  const hasUploads = (query.data?.length ?? 0) > 0;
  return (
    <Section
      title="Latest uploads"
      action={
        hasUploads ? (
          <Button component={RouterLink} to={paths.latestUploads} size="small">
            See all
          </Button>
        ) : undefined
      }
    >
      <UploadsFeed
        query={query}
        label="Latest uploads"
        showProject
        skeletonCount={limits.latestUploadsHome}
        empty={<NoUploads description="Photos uploaded to any project appear here." />}
      />
    </Section>
  );
}
