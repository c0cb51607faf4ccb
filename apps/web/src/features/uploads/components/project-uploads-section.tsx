import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { Section } from '@/components/section';
import { paths } from '@/lib/paths';
import { useProjectUploads } from '../api/get-project-uploads';
import { UPLOAD_TILE_ASPECT } from './upload-tiles';
import { UploadsFeed } from './uploads-feed';

/** The first tile of a project's uploads: opens the uploader for that project. */
export function AddUploadTile({ projectId }: { projectId: number }) {
  return (
    <Card variant="outlined" sx={{ height: '100%', borderStyle: 'dashed' }}>
      <CardActionArea
        component={RouterLink}
        to={paths.uploader(projectId)}
        sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <Stack
          spacing={0.5}
          sx={{
            aspectRatio: UPLOAD_TILE_ASPECT,
            alignItems: 'center',
            justifyContent: 'center',
            color: 'primary.main',
          }}
        >
          <AddPhotoAlternateOutlined aria-hidden sx={{ fontSize: 40 }} />
          <Typography variant="button">Add upload</Typography>
        </Stack>
      </CardActionArea>
    </Card>
  );
}

/**
 * The project page's Uploads section: an "add upload" tile, then the project's photos, with the
 * project's stored upload count when the page knows it. A read-only project (archived) gets no
 * "add upload" tile.
 */
export function ProjectUploadsSection({
  projectId,
  count,
  canAdd = true,
}: {
  projectId: number;
  count?: number;
  canAdd?: boolean;
}) {
  const query = useProjectUploads(projectId);
  return (
    <Section
      title="Uploads"
      action={
        count === undefined ? undefined : (
          <Typography variant="body2" color="text.secondary">
            {count === 1 ? '1 upload' : `${count} uploads`}
          </Typography>
        )
      }
    >
      <UploadsFeed
        query={query}
        label="Project uploads"
        leading={canAdd ? <AddUploadTile projectId={projectId} /> : undefined}
        empty={
          <Typography variant="body2" color="text.secondary">
            No photos were added to this project.
          </Typography>
        }
      />
    </Section>
  );
}
