import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Project } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { Section } from '@/components/section';
import { paths } from '@/lib/paths';

const TILE_ASPECT = '1 / 1';
const tileColumns = 'repeat(auto-fill, minmax(min(100%, 140px), 1fr))';

/**
 * The project page's Uploads section (spec §2): a tile that opens the uploader for this project,
 * then the project's latest uploads (`lastUploads`), each opening its upload page.
 */
export function ProjectUploadsSection({ project }: { project: Project }) {
  const count = project.uploadsCount;
  return (
    <Section
      title="Uploads"
      action={
        <Typography variant="body2" color="text.secondary">
          {count === 1 ? '1 upload' : `${count} uploads`}
        </Typography>
      }
    >
      <Box
        component="ul"
        aria-label="Latest uploads of this project"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'grid',
          gridTemplateColumns: tileColumns,
          gap: 1.5,
        }}
      >
        <Box component="li">
          <Card variant="outlined" sx={{ height: '100%', borderStyle: 'dashed' }}>
            <CardActionArea
              component={RouterLink}
              to={paths.uploader(project.id)}
              sx={{ height: '100%' }}
            >
              <Stack
                spacing={0.5}
                sx={{
                  aspectRatio: TILE_ASPECT,
                  alignItems: 'center',
                  justifyContent: 'center',
                  color: 'primary.main',
                  p: 1,
                }}
              >
                <AddPhotoAlternateOutlined aria-hidden sx={{ fontSize: 40 }} />
                <Typography variant="button">Add upload</Typography>
              </Stack>
            </CardActionArea>
          </Card>
        </Box>
        {project.lastUploads.map((upload, index) => (
          <Box component="li" key={upload.id}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardActionArea component={RouterLink} to={paths.upload(upload.id)}>
                <Box sx={{ aspectRatio: TILE_ASPECT, bgcolor: 'action.hover', overflow: 'hidden' }}>
                  <Box
                    component="img"
                    src={upload.previewLink}
                    alt={`Latest upload ${index + 1} in ${project.name}`}
                    loading="lazy"
                    decoding="async"
                    sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
                  />
                </Box>
              </CardActionArea>
            </Card>
          </Box>
        ))}
      </Box>
      {count === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          No photos yet. Add the first upload to document this project.
        </Typography>
      ) : null}
    </Section>
  );
}
