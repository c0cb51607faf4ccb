import HideImageOutlined from '@mui/icons-material/HideImageOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReportDetail, ReportPhoto } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { Section } from '@/components/section';
import { formatDate } from '@/lib/format-date';
import { paths } from '@/lib/paths';
import { plural } from '../report-text';

const photoName = (photo: Pick<ReportPhoto, 'name'>) =>
  photo.name.trim() === '' ? 'Untitled photo' : photo.name;

/**
 * What a photo gone since the report was made is, said where the photo would be: the API tells
 * a deleted photo and one moved to another project apart from neither (its `upload` is null in
 * both), so both are named.
 */
function goneText(report: Pick<ReportDetail, 'pdf'>, photo: ReportPhoto): string {
  if (report.pdf && photo.sha256 !== null)
    return `Deleted or moved to another project — kept in the PDF made on ${formatDate(report.pdf.generatedAt)}`;
  return 'Deleted or moved to another project — not in a PDF made now';
}

function PhotoRow({ report, photo }: { report: ReportDetail; photo: ReportPhoto }) {
  const gone = photo.upload === null || photo.uploadId === null;
  const name = photoName(photo);
  return (
    <Box
      component="li"
      data-report-photo={photo.position}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '72px minmax(0, 1fr)', sm: '120px minmax(0, 1fr)' },
        gap: { xs: 1.5, sm: 2 },
        py: 1.5,
        alignItems: 'start',
      }}
    >
      <Box
        sx={{
          position: 'relative',
          aspectRatio: '4 / 3',
          borderRadius: 1,
          overflow: 'hidden',
          bgcolor: 'action.hover',
          display: 'grid',
          placeItems: 'center',
        }}
      >
        {photo.upload ? (
          <Box
            component="img"
            src={photo.upload.previewLink}
            alt=""
            loading="lazy"
            decoding="async"
            sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
          />
        ) : (
          <HideImageOutlined aria-hidden sx={{ color: 'text.disabled' }} />
        )}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography component="h3" variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
          <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
            {`${photo.position}. `}
          </Box>
          {gone || photo.uploadId === null ? (
            name
          ) : (
            <Link component={RouterLink} to={paths.upload(photo.uploadId)}>
              {name}
            </Link>
          )}
        </Typography>
        {gone ? (
          <Stack
            direction="row"
            spacing={0.75}
            sx={{ alignItems: 'center', mt: 0.25 }}
            data-photo-gone
          >
            <HideImageOutlined aria-hidden color="warning" sx={{ fontSize: 18 }} />
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              {goneText(report, photo)}
            </Typography>
          </Stack>
        ) : null}
        {photo.caption.trim() !== '' ? (
          <Typography
            variant="body2"
            sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          >
            {photo.caption}
          </Typography>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            No caption
          </Typography>
        )}
        {photo.sha256 ? (
          <Typography
            variant="caption"
            color="text.secondary"
            component="p"
            sx={{ mt: 0.5, fontFamily: 'monospace', wordBreak: 'break-all' }}
          >
            SHA-256 {photo.sha256}
          </Typography>
        ) : null}
      </Box>
    </Box>
  );
}

/**
 * The report's photos in their order: thumbnail, name (a link to the photo while it exists),
 * caption, and the SHA-256 of the original the PDF printed, once known. A photo deleted or moved
 * to another project since the report was made is marked, and the PDF made before still holds it.
 */
export function ReportPhotos({ report }: { report: ReportDetail }) {
  return (
    <Section title={`Photos (${report.photos.length})`}>
      {report.photos.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          This report has no photos.
        </Typography>
      ) : (
        <Box
          component="ol"
          aria-label={`The report’s ${plural(report.photos.length, 'photo')}, in order`}
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            '& > li + li': { borderTop: 1, borderColor: 'divider' },
          }}
        >
          {report.photos.map((photo) => (
            <PhotoRow key={photo.position} report={report} photo={photo} />
          ))}
        </Box>
      )}
    </Section>
  );
}
