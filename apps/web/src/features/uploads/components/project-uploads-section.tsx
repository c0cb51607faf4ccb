import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { tagSchema } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { Section } from '@/components/section';
import { paths } from '@/lib/paths';
import { useProjectUploads } from '../api/get-project-uploads';
import { TagFilter } from './tag-filter';
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

function ClearTagFilter({ projectId }: { projectId: number }) {
  return (
    <Button component={RouterLink} to={paths.project(projectId)} variant="outlined">
      Clear filter
    </Button>
  );
}

/** All of the project's uploads, after the "add upload" tile when it may take more. */
function AllUploads({ projectId, canAdd }: { projectId: number; canAdd: boolean }) {
  const query = useProjectUploads(projectId);
  return (
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
  );
}

/** The project's uploads with one tag (already normalised and valid). */
function TaggedUploads({ projectId, tag }: { projectId: number; tag: string }) {
  const query = useProjectUploads(projectId, tag);
  return (
    <UploadsFeed
      query={query}
      label={`Project uploads tagged ${tag}`}
      empty={
        <EmptyState
          icon={<LocalOfferOutlined />}
          message={`No photos tagged “${tag}”`}
          description="No photo of this project has this tag (any more). Show all of its photos instead."
          action={<ClearTagFilter projectId={projectId} />}
        />
      }
    />
  );
}

/**
 * The project page's Uploads section: the project's tags as a filter, an "add upload" tile, then
 * the project's photos, with the project's stored upload count when the page knows it. With
 * `tag` (the page's `?tag=`, compared as stored) only the photos with that tag show, with a way
 * back to all of them. A read-only project (archived) gets no "add upload" tile.
 */
export function ProjectUploadsSection({
  projectId,
  count,
  canAdd = true,
  tag = null,
}: {
  projectId: number;
  count?: number;
  canAdd?: boolean;
  tag?: string | null;
}) {
  const parsed = tag === null ? null : tagSchema.safeParse(tag);
  const filter = parsed?.success ? parsed.data : null;
  return (
    <Section
      title="Uploads"
      action={
        count === undefined || tag !== null ? undefined : (
          <Typography variant="body2" color="text.secondary">
            {count === 1 ? '1 upload' : `${count} uploads`}
          </Typography>
        )
      }
    >
      <TagFilter projectId={projectId} tag={filter} />
      {parsed && !parsed.success ? (
        <Alert severity="warning" action={<ClearTagFilter projectId={projectId} />}>
          This link’s tag filter is not a tag: {parsed.error.issues[0]?.message}
        </Alert>
      ) : filter !== null ? (
        <TaggedUploads projectId={projectId} tag={filter} />
      ) : (
        <AllUploads projectId={projectId} canAdd={canAdd} />
      )}
    </Section>
  );
}
