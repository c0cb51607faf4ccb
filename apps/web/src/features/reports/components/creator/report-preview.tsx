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

/**
 * Rows of the PDF's photo index on one page. A copy of `indexRowsPerPage` in
 * apps/server/src/modules/reports/report-pdf.ts (A4's 737.89 pt of content, less the 64 pt
 * header, in 13 pt rows), which the web cannot import: keep the two in step.
 */
export const PDF_INDEX_ROWS_PER_PAGE = 51;

/**
 * Intro lines (of about 90 characters) that surely fit on the cover under its facts; a longer
 * intro may run on to a second cover page, so the page count is not known before the PDF is made.
 */
const COVER_INTRO_LINES = 16;
const INTRO_LINE_CHARS = 90;

/**
 * The PDF's page count, as `renderReportPdf` (report-pdf.ts) numbers its pages "Page N of M": the
 * cover, one page per `layout` photos, then the photo index (at least one page). Null when the
 * intro is long enough that the cover may take more than one page.
 */
export function pdfPageCount(
  photoCount: number,
  layout: ReportLayout,
  intro: string,
): number | null {
  const introLines = intro
    .trim()
    .split('\n')
    .reduce(
      (lines, paragraph) => lines + Math.max(1, Math.ceil(paragraph.length / INTRO_LINE_CHARS)),
      0,
    );
  if (intro.trim() !== '' && introLines > COVER_INTRO_LINES) return null;
  const n = Math.max(0, photoCount);
  return 1 + Math.ceil(n / layout) + Math.max(1, Math.ceil(n / PDF_INDEX_ROWS_PER_PAGE));
}

// The sheet is paper whatever the colour mode: dark text on white, as printed.
const INK = '#1C1917';
const MUTED = '#57534E';
const RULE = '#D6D3D1';
/** The PDF's accent: the type line and the rule under the team name. */
const ACCENT = '#1D5FA8';

const today = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

/** An A4 sheet, scaled to the column: text sizes are shares of its width (container units). */
function Sheet({
  label,
  page,
  pages,
  title,
  children,
}: {
  label: string;
  page: number;
  /** The PDF's page count; null when it is not known before the PDF is made. */
  pages: number | null;
  /** The report's title, in the footer as the PDF prints it. */
  title: string;
  children: ReactNode;
}) {
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
        <Box
          component="span"
          sx={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          Sitelog · Report # · {title.trim() || 'Untitled report'}
        </Box>
        <Box component="span" sx={{ flex: 'none', pl: '2cqw' }}>
          {pages === null ? `Page ${page}` : `Page ${page} of ${pages}`}
        </Box>
      </Box>
    </Box>
  );
}

function CoverFact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: '2cqw', py: '0.6cqw' }}>
      <Box component="span" sx={{ color: MUTED, width: '22cqw', flex: 'none' }}>
        {term}
      </Box>
      <Box component="span" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Box>
  );
}

function CoverSheet({ cover, pages }: { cover: PreviewCover; pages: number | null }) {
  const count = cover.photoCount;
  return (
    <Sheet label="Cover" page={1} pages={pages} title={cover.title}>
      <Box
        sx={{
          fontSize: '2.5cqw',
          fontWeight: 700,
          color: MUTED,
          pb: '1.5cqw',
          borderBottom: `0.5cqw solid ${ACCENT}`,
          overflowWrap: 'anywhere',
        }}
      >
        {cover.teamName.trim() || 'Your company or team'}
      </Box>
      <Box sx={{ mt: '6cqw', fontSize: '2.8cqw', fontWeight: 700, color: ACCENT }}>
        {cover.typeLabel}
      </Box>
      <Box
        sx={{
          fontSize: '5.6cqw',
          fontWeight: 700,
          lineHeight: 1.15,
          mt: '0.5cqw',
          mb: '4cqw',
          overflowWrap: 'anywhere',
        }}
      >
        {cover.title.trim() || 'Untitled report'}
      </Box>
      <CoverFact term="Project">{cover.projectName}</CoverFact>
      {cover.projectLocation ? (
        <CoverFact term="Location">{cover.projectLocation}</CoverFact>
      ) : null}
      <CoverFact term="Author">{cover.authorName}</CoverFact>
      <CoverFact term="Period">{cover.rangeText}</CoverFact>
      <CoverFact term="Photos">{`${count} ${count === 1 ? 'photo' : 'photos'}`}</CoverFact>
      <CoverFact term="Created">{`${today.format(new Date())} (${cover.timeZone})`}</CoverFact>
      <CoverFact term="Report">#… (given when generated)</CoverFact>
      {cover.intro.trim() ? (
        <Box
          sx={{
            mt: '4cqw',
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

/**
 * Where the PDF puts a photo (report-pdf.ts `formatLocation`): its coordinates, and the nearest
 * place's name, which the server looks up while it makes the PDF.
 */
function locationText(photo: Pick<Upload, 'latitude' | 'longitude'>): string {
  if (photo.latitude === null || photo.longitude === null) return 'no location';
  return `${photo.latitude.toFixed(5)}, ${photo.longitude.toFixed(5)} · place added when generated`;
}

/**
 * One photo's cell as the PDF draws it: the picture fitted at the top, centred, with the text
 * right under it (not at the foot of the cell); what room is left stays empty below.
 */
function PhotoCell({
  photo,
  position,
  caption,
  small,
}: {
  photo: Upload;
  position: number;
  caption: string;
  small: boolean;
}) {
  const line = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;
  const ratio =
    photo.formatedWidth > 0 && photo.formatedHeight > 0
      ? `${photo.formatedWidth} / ${photo.formatedHeight}`
      : '4 / 3';
  return (
    <Box
      data-preview-cell=""
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, minWidth: 0 }}
    >
      <Box
        component="img"
        src={photo.previewLink}
        alt=""
        loading="lazy"
        decoding="async"
        data-preview-photo=""
        sx={{
          // The photo's own shape, full width; when that is too tall for the cell it shrinks
          // (never grows), the picture centred in it: the text follows right under the picture.
          flex: '0 1 auto',
          minHeight: 0,
          width: '100%',
          aspectRatio: ratio,
          objectFit: 'contain',
          objectPosition: 'top center',
          display: 'block',
        }}
      />
      <Box sx={{ flex: 'none', pt: '1cqw', fontSize: small ? '1.8cqw' : '2.2cqw', minWidth: 0 }}>
        <Box sx={{ fontWeight: 700, ...line }}>
          #{position} {photoName(photo)}
        </Box>
        {caption.trim() ? (
          <Box
            sx={{
              overflow: 'hidden',
              display: '-webkit-box',
              WebkitLineClamp: small ? 3 : 2,
              WebkitBoxOrient: 'vertical',
              overflowWrap: 'anywhere',
            }}
          >
            {caption.trim()}
          </Box>
        ) : null}
        <Box sx={{ color: MUTED, fontSize: '0.85em', ...line }}>
          Taken by {authorName(photo)} · {photoTime(photo)}
        </Box>
        <Box sx={{ color: MUTED, fontSize: '0.85em', ...line }}>Location {locationText(photo)}</Box>
        <Box sx={{ color: MUTED, fontFamily: 'monospace', fontSize: '0.8em', ...line }}>
          SHA-256 added when generated
        </Box>
      </Box>
    </Box>
  );
}

function PhotoSheet({
  page,
  pages,
  first,
  title,
  layout,
  photos,
  captionOf,
}: {
  page: number;
  pages: number | null;
  /** The position of its first photo in the report. */
  first: number;
  title: string;
  layout: ReportLayout;
  photos: readonly Upload[];
  captionOf: (photo: Upload) => string;
}) {
  return (
    <Sheet label={`Page ${page}`} page={page} pages={pages} title={title}>
      <Box
        sx={{
          flex: 1,
          minHeight: 0,
          display: 'grid',
          gap: '4cqw',
          gridTemplateColumns: layout === 4 ? '1fr 1fr' : '1fr',
          gridTemplateRows: layout === 1 ? 'minmax(0, 1fr)' : 'repeat(2, minmax(0, 1fr))',
        }}
      >
        {photos.map((photo, index) => (
          <PhotoCell
            key={photo.id}
            photo={photo}
            position={first + index}
            caption={captionOf(photo)}
            small={layout === 4}
          />
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
  const pageCount = pdfPageCount(photos.length, layout, cover.intro);
  return (
    <Stack spacing={2} data-report-preview="">
      <CoverSheet cover={cover} pages={pageCount} />
      {pages.map((photosOfPage, index) => (
        <PhotoSheet
          key={index}
          page={index + 2}
          pages={pageCount}
          first={index * layout + 1}
          title={cover.title}
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
        {pageCount === null
          ? ' The intro is long: it may run on to a second cover page, which moves the page numbers on.'
          : ''}
      </Typography>
    </Stack>
  );
}
