import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReportLayout, Upload } from '@sitelog/shared';
import type { ReactNode } from 'react';
import { authorName, photoName, photoTime } from './photo-names';

/** What the cover says, as the PDF will print it. */
export interface PreviewCover {
  teamName: string;
  typeLabel: string;
  title: string;
  projectName: string;
  projectLocation: string;
  authorName: string;
  rangeText: string;
  photoCount: number;
  intro: string;
  timeZone: string;
}

/** Photo pages the preview draws after the cover. */
export const PREVIEW_PHOTO_PAGES = 2;

// The sheet is paper whatever the colour mode: dark text on white, as printed.
const INK = '#1C1917';
const MUTED = '#57534E';
const RULE = '#D6D3D1';

/** An A4 sheet, scaled to the column: text sizes are shares of its width (container units). */
function Sheet({ label, page, children }: { label: string; page: number; children: ReactNode }) {
  return (
    <Box
      role="group"
      aria-label={label}
      data-preview-page={page}
      sx={{
        containerType: 'inline-size',
        aspectRatio: '210 / 297',
        width: '100%',
        bgcolor: '#FFFFFF',
        color: INK,
        border: 1,
        borderColor: 'divider',
        boxShadow: 2,
        borderRadius: 0.5,
        overflow: 'hidden',
        position: 'relative',
      }}
    >
      <Box
        sx={{
          position: 'absolute',
          inset: 0,
          p: '7cqw',
          pb: '11cqw',
          display: 'flex',
          flexDirection: 'column',
          fontSize: '2.6cqw',
          lineHeight: 1.35,
        }}
      >
        {children}
      </Box>
      <Box
        sx={{
          position: 'absolute',
          left: '7cqw',
          right: '7cqw',
          bottom: '4cqw',
          display: 'flex',
          justifyContent: 'space-between',
          fontSize: '2cqw',
          color: MUTED,
          borderTop: `1px solid ${RULE}`,
          pt: '1.2cqw',
        }}
      >
        <span>Report # · Sitelog</span>
        <span>Page {page}</span>
      </Box>
    </Box>
  );
}

function CoverFact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: '2cqw', py: '0.8cqw', borderBottom: `1px solid ${RULE}` }}>
      <Box component="span" sx={{ color: MUTED, width: '22cqw', flex: 'none' }}>
        {term}
      </Box>
      <Box component="span" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Box>
  );
}

function CoverSheet({ cover }: { cover: PreviewCover }) {
  return (
    <Sheet label="Cover" page={1}>
      <Box sx={{ fontSize: '2.4cqw', fontWeight: 700, letterSpacing: '0.08em', color: MUTED }}>
        {(cover.teamName.trim() || 'Your company or team').toUpperCase()}
      </Box>
      <Box sx={{ mt: '10cqw', fontSize: '2.8cqw', color: MUTED }}>{cover.typeLabel}</Box>
      <Box
        sx={{
          fontSize: '6cqw',
          fontWeight: 700,
          lineHeight: 1.15,
          mt: '1cqw',
          mb: '6cqw',
          overflowWrap: 'anywhere',
        }}
      >
        {cover.title.trim() || 'Untitled report'}
      </Box>
      <CoverFact term="Project">
        {cover.projectName}
        {cover.projectLocation ? ` · ${cover.projectLocation}` : ''}
      </CoverFact>
      <CoverFact term="Author">{cover.authorName}</CoverFact>
      <CoverFact term="Period">{cover.rangeText}</CoverFact>
      <CoverFact term="Photos">{cover.photoCount}</CoverFact>
      <CoverFact term="Times in">{cover.timeZone}</CoverFact>
      {cover.intro.trim() ? (
        <Box
          sx={{
            mt: '5cqw',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            overflow: 'hidden',
            display: '-webkit-box',
            WebkitLineClamp: 12,
            WebkitBoxOrient: 'vertical',
          }}
        >
          {cover.intro.trim()}
        </Box>
      ) : null}
    </Sheet>
  );
}

/** One photo's cell: the picture, then what the PDF prints under it. */
function PhotoCell({ photo, caption, small }: { photo: Upload; caption: string; small: boolean }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, minWidth: 0 }}>
      <Box
        sx={{
          flex: 1,
          minHeight: 0,
          bgcolor: '#F5F5F4',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }}
      >
        <Box
          component="img"
          src={photo.previewLink}
          alt=""
          loading="lazy"
          decoding="async"
          sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', display: 'block' }}
        />
      </Box>
      <Box sx={{ pt: '1cqw', fontSize: small ? '1.9cqw' : '2.3cqw', minWidth: 0 }}>
        <Box
          sx={{
            fontWeight: 700,
            overflow: 'hidden',
            display: '-webkit-box',
            WebkitLineClamp: 2,
            WebkitBoxOrient: 'vertical',
            overflowWrap: 'anywhere',
          }}
        >
          {caption.trim() || photoName(photo)}
        </Box>
        <Box
          sx={{ color: MUTED, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
        >
          {authorName(photo)} · {photoTime(photo)}
        </Box>
        <Box
          sx={{
            color: MUTED,
            fontFamily: 'monospace',
            fontSize: small ? '1.6cqw' : '1.9cqw',
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
          }}
        >
          SHA-256 added when generated
        </Box>
      </Box>
    </Box>
  );
}

function PhotoSheet({
  page,
  layout,
  photos,
  captionOf,
}: {
  page: number;
  layout: ReportLayout;
  photos: readonly Upload[];
  captionOf: (photo: Upload) => string;
}) {
  return (
    <Sheet label={`Page ${page}`} page={page}>
      <Box
        sx={{
          flex: 1,
          minHeight: 0,
          display: 'grid',
          gap: '4cqw',
          gridTemplateColumns: layout === 4 ? '1fr 1fr' : '1fr',
          gridTemplateRows: layout === 1 ? '1fr' : '1fr 1fr',
        }}
      >
        {photos.map((photo) => (
          <PhotoCell key={photo.id} photo={photo} caption={captionOf(photo)} small={layout === 4} />
        ))}
      </Box>
    </Sheet>
  );
}

/**
 * The report's first pages as they will print, scaled down: the cover, then the first photo
 * pages in the chosen layout. The hashes are computed by the server from the stored originals,
 * so the preview says where they go.
 */
export function ReportPreview({
  cover,
  layout,
  photos,
  captionOf,
}: {
  cover: PreviewCover;
  layout: ReportLayout;
  /** The report's photos, in order (only the first pages' are drawn). */
  photos: readonly Upload[];
  captionOf: (photo: Upload) => string;
}) {
  const pages: Upload[][] = [];
  for (let i = 0; i < Math.min(photos.length, layout * PREVIEW_PHOTO_PAGES); i += layout)
    pages.push(photos.slice(i, i + layout));
  const morePages = Math.ceil(photos.length / layout) - pages.length;
  return (
    <Stack spacing={2} data-report-preview="">
      <CoverSheet cover={cover} />
      {pages.map((photosOfPage, index) => (
        <PhotoSheet
          key={index}
          page={index + 2}
          layout={layout}
          photos={photosOfPage}
          captionOf={captionOf}
        />
      ))}
      <Typography variant="body2" color="text.secondary">
        {photos.length === 0
          ? 'The photo pages show here once the report has photos.'
          : morePages > 0
            ? `…and ${morePages} more photo ${morePages === 1 ? 'page' : 'pages'}, then a last page listing every photo with its SHA-256.`
            : 'Then a last page listing every photo with its SHA-256.'}
      </Typography>
    </Stack>
  );
}
