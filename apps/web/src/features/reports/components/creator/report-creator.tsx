import AutoAwesomeMotionOutlined from '@mui/icons-material/AutoAwesomeMotionOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  reportLimits,
  reportTypeLabels,
  reportTypes,
  type CreateReportRequest,
  type Project,
  type ReportDetail,
  type ReportLayout,
  type ReportType,
  type Upload,
} from '@sitelog/shared';
import { useCallback, useId, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { isOverLimit, LimitedTextField, useCharacterLimit } from '@/components/character-limit';
import { ErrorState } from '@/components/error-state';
import { TileGridSkeleton } from '@/components/skeletons';
import { ApiError, errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { useCurrentUser } from '@/lib/session';
import { useOnline } from '@/lib/use-online';
import { useCreateReport } from '@/features/reports/api/create-report';
import { useWorkspace } from '@/features/reports/api/get-workspace';
import { LayoutField } from './layout-field';
import { PhotoPicker } from './photo-picker';
import {
  AUTO_LOAD_MAX,
  photoDay,
  photosInRange,
  useRangeLoading,
  type ProjectPhotoFeed,
} from './range-photos';
import { browserTimeZone, formatDay, formatDayRange, isDay, todayIn } from './report-dates';
import { ReportPreview } from './report-preview';
import { SelectedPhotos } from './selected-photos';
import { useStableCallback } from './use-stable-callback';

const numberFormat = new Intl.NumberFormat();

/** A caption starts as the photo's description, cut to what a caption may hold. */
const prefilledCaption = (photo: Upload) =>
  [...photo.description.trim()].slice(0, reportLimits.captionMax).join('');

/** "uploaded on 26 Nov 2026" / "uploaded between 24 Nov 2026 and 26 Nov 2026". */
function rangeText(from: string, to: string): string {
  if (!isDay(from) || !isDay(to) || from > to) return 'uploaded in the chosen days';
  return from === to
    ? `uploaded on ${formatDay(from)}`
    : `uploaded between ${formatDay(from)} and ${formatDay(to)}`;
}

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

type Field = 'title' | 'from' | 'to' | 'teamName' | 'intro' | 'photos' | 'captions';

/** What stops the report from being made, field by field, in the order of the form. */
type Problems = Partial<Record<Field, string>>;

function FieldRow({ children }: { children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ '& > *': { flex: 1 } }}>
      {children}
    </Stack>
  );
}

export interface ReportCreatorProps {
  project: Project;
  /** The project's photos, newest upload first, read page by page (see ProjectPhotoFeed). */
  feed: ProjectPhotoFeed;
  /** What else to refresh once the report is created (the page names other features' views). */
  invalidateOnCreate?: ExtraInvalidations<ReportDetail, CreateReportRequest>;
}

/**
 * Says that `count` of the report's photos were uploaded outside its days, which the cover
 * prints as its period, with the one click that widens the days to hold them.
 */
function OutsideRangeWarning({
  count,
  rangeText,
  onWiden,
  role,
}: {
  count: number;
  rangeText: string;
  onWiden: () => void;
  /** One of the two copies is a live region; the other is only read where it stands. */
  role: 'status' | 'note';
}) {
  return (
    <Alert severity="warning" role={role} data-outside-range="">
      {count} {count === 1 ? 'photo was' : 'photos were'} uploaded outside {rangeText}. The cover
      will say {rangeText}.
      <Box sx={{ mt: 1 }}>
        <Button color="inherit" size="small" onClick={onWiden}>
          Widen dates to fit the photos
        </Button>
      </Box>
    </Alert>
  );
}

/**
 * The report creator (spec §2's report-creator): what the report is (type, title, days, team on
 * the cover, layout, intro), which of the project's photos it holds in which order with their
 * captions, and a preview of its first pages. GENERATE REPORT sends it (POST /api/report) and
 * opens the report's page, which shows the PDF being made. The report starts with the photos
 * uploaded in its days, oldest first; once the user picks by hand, new dates leave the choice
 * alone (USE PHOTOS IN RANGE takes the range's again). Everything typed stays on an error.
 */
export function ReportCreator({ project, feed, invalidateOnCreate }: ReportCreatorProps) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const online = useOnline();
  const workspace = useWorkspace();
  const create = useCreateReport({ invalidate: invalidateOnCreate });
  const ids = {
    title: useId(),
    from: useId(),
    to: useId(),
    teamName: useId(),
    intro: useId(),
    photos: useId(),
    preview: useId(),
  };
  const [timeZone] = useState(browserTimeZone);
  const [today] = useState(() => todayIn(timeZone));

  const [type, setType] = useState<ReportType>('daily');
  /** Null while the title is the automatic one (type and days), which follows them. */
  const [title, setTitle] = useState<string | null>(null);
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [intro, setIntro] = useState('');
  const [layout, setLayout] = useState<ReportLayout>(2);
  /** Null while the cover takes the workspace's name. */
  const [teamName, setTeamName] = useState<string | null>(null);
  /** The photos picked by hand, in order; null while the report takes the range's. */
  const [picked, setPicked] = useState<number[] | null>(null);
  const [captions, setCaptions] = useState<Record<number, string>>({});
  /** Set by the first GENERATE: from then on every problem shows. */
  const [checked, setChecked] = useState(false);

  const rangeOk = isDay(from) && isDay(to) && from <= to;
  const photos = feed.photos;
  const byId = useMemo(() => new Map((photos ?? []).map((p) => [p.id, p])), [photos]);
  const rangePhotos = useMemo(
    () => (rangeOk ? photosInRange(photos ?? [], from, to, timeZone) : []),
    [photos, from, to, rangeOk, timeZone],
  );
  const rangeIds = useMemo(() => rangePhotos.map((p) => p.id), [rangePhotos]);
  const inRange = useMemo(() => new Set(rangeIds), [rangeIds]);
  const loading = useRangeLoading(feed, rangeOk ? from : '', rangeIds.length, timeZone);

  const selected = useMemo(
    () =>
      (picked ?? rangeIds).flatMap((id) => {
        const photo = byId.get(id);
        return photo ? [photo] : [];
      }),
    [picked, rangeIds, byId],
  );
  const selectedIds = useMemo(() => selected.map((p) => p.id), [selected]);
  const captionOf = (photo: Upload) => captions[photo.id] ?? prefilledCaption(photo);

  /**
   * The days of the chosen photos that fall outside From–To (by the day basis of the range: the
   * upload day in the report's zone). Picked by hand, they would contradict the cover's period.
   */
  const outsideDays = rangeOk
    ? selected.flatMap((photo) => {
        const day = photoDay(photo, timeZone);
        return day !== '' && (day < from || day > to) ? [day] : [];
      })
    : [];
  /** Widens From–To to hold every chosen photo (an automatic title follows the new days). */
  const widenDates = () => {
    const days = [...outsideDays, from, to].sort();
    setFrom(days[0]!);
    setTo(days.at(-1)!);
  };
  const outsideWarning = (role: 'status' | 'note') =>
    outsideDays.length > 0 ? (
      <OutsideRangeWarning
        count={outsideDays.length}
        rangeText={formatDayRange(from, to)}
        onWiden={widenDates}
        role={role}
      />
    ) : null;

  /** Any change to the photos by hand: from now on the dates leave the choice alone. */
  const change = (next: number[]) => setPicked(next.slice(0, reportLimits.photosMax));
  const onToggle = useStableCallback((id: number) =>
    change(selectedIds.includes(id) ? selectedIds.filter((x) => x !== id) : [...selectedIds, id]),
  );
  const onAddAll = useStableCallback((add: number[]) => change([...selectedIds, ...add]));
  const onRemoveAll = useStableCallback((remove: number[]) =>
    change(selectedIds.filter((id) => !remove.includes(id))),
  );
  const onMove = useStableCallback((id: number, to: number) => {
    const next = selectedIds.filter((x) => x !== id);
    next.splice(to, 0, id);
    change(next);
  });
  const onRemove = useStableCallback((id: number) => change(selectedIds.filter((x) => x !== id)));
  const onCaptionChange = useCallback(
    (id: number, caption: string) => setCaptions((all) => ({ ...all, [id]: caption })),
    [],
  );

  const autoTitle = `${reportTypeLabels[type]} – ${formatDayRange(from, to)}`;
  const titleValue = title ?? autoTitle;
  const teamValue = teamName ?? workspace.data?.teamName ?? '';
  const titleLimit = useCharacterLimit(
    titleValue,
    reportLimits.titleMax,
    'The title',
    'Printed on the cover and in the list of reports.',
  );

  const problems: Problems = {};
  if (titleValue.trim() === '') problems.title = 'Give the report a title.';
  else if (titleLimit.error)
    problems.title = `The title must be at most ${reportLimits.titleMax} characters.`;
  if (!isDay(from)) problems.from = 'Choose the first day the report covers.';
  if (!isDay(to)) problems.to = 'Choose the last day the report covers.';
  else if (isDay(from) && from > to)
    problems.to = 'The last day must be on or after the first day.';
  if (isOverLimit(teamValue, reportLimits.teamNameMax))
    problems.teamName = `The company or team name must be at most ${reportLimits.teamNameMax} characters.`;
  if (isOverLimit(intro, reportLimits.introMax))
    problems.intro = `The intro must be at most ${numberFormat.format(reportLimits.introMax)} characters.`;
  if (selected.length === 0) problems.photos = 'Pick at least one photo for the report.';
  const longCaption = selected.find((p) => isOverLimit(captionOf(p), reportLimits.captionMax));
  if (longCaption)
    problems.captions = `The caption of “${longCaption.name || 'Untitled photo'}” is too long: shorten it to at most ${reportLimits.captionMax} characters.`;
  const problemList = Object.entries(problems) as [Field, string][];
  const shown = (field: Field) => (checked ? problems[field] : undefined);

  const body = (): CreateReportRequest => ({
    projectId: project.id,
    type,
    title: titleValue.trim(),
    intro: intro.trim(),
    from,
    to,
    layout,
    photos: selected.map((photo) => ({ uploadId: photo.id, caption: captionOf(photo).trim() })),
    timeZone,
    // Sent only when typed here: otherwise the server puts the workspace's name on the cover.
    ...(teamName === null ? {} : { teamName: teamName.trim() }),
  });

  /** GENERATE REPORT: the only way the report is sent (Enter in a field does not submit). */
  const generate = () => {
    setChecked(true);
    const first = problemList[0];
    if (first) {
      const target =
        first[0] === 'captions'
          ? document.querySelector<HTMLElement>(
              `[data-report-photo="${longCaption?.id}"] textarea:not([aria-hidden])`,
            )
          : document.getElementById(first[0] === 'photos' ? ids.photos : ids[first[0]]);
      target?.focus();
      return;
    }
    if (!online || create.isPending) return;
    create.mutate(body(), {
      onSuccess: (report) => void navigate(paths.report(report.id)),
    });
  };

  const serverError = create.error;
  const unreachable = serverError instanceof ApiError && serverError.status === 0;
  const sending = create.isPending;
  const partialBecauseFull = rangeIds.length >= reportLimits.photosMax;
  const rangeWords = rangeText(from, to);

  return (
    <Box
      component="form"
      noValidate
      // Only GENERATE REPORT sends the report: Enter in a field (a phone's Go key) must not make
      // a report half-filled, so a submit (implicit or not) does nothing. The button is a plain
      // button and works with Enter and Space like any other.
      onSubmit={(event) => event.preventDefault()}
      aria-label="New report"
    >
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            md: 'minmax(0, 1fr) 300px',
            lg: 'minmax(0, 1fr) 360px',
          },
          // On phones the preview comes before GENERATE REPORT (in the page's order, too), so
          // the report is seen before it is sent; wider, it stays beside the form.
          gridTemplateAreas: {
            xs: '"form" "preview" "submit"',
            md: '"form preview" "submit preview"',
          },
          gridTemplateRows: { md: 'auto 1fr' },
          gap: 3,
          alignItems: 'start',
        }}
      >
        <Stack spacing={3} sx={{ minWidth: 0, gridArea: 'form' }}>
          <Paper
            variant="outlined"
            component="section"
            aria-labelledby={`${ids.title}-h`}
            sx={{ p: 2 }}
          >
            <Typography id={`${ids.title}-h`} variant="h2" sx={{ mb: 2 }}>
              Details
            </Typography>
            <Stack spacing={2}>
              <FieldRow>
                <TextField
                  select
                  label="Type"
                  value={type}
                  onChange={(event) => setType(event.target.value as ReportType)}
                >
                  {reportTypes.map((t) => (
                    <MenuItem key={t} value={t}>
                      {reportTypeLabels[t]}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  id={ids.from}
                  type="date"
                  label="From"
                  value={from}
                  onChange={(event) => setFrom(event.target.value)}
                  error={shown('from') !== undefined}
                  helperText={shown('from')}
                  slotProps={{ inputLabel: { shrink: true } }}
                  required
                />
                <TextField
                  id={ids.to}
                  type="date"
                  label="To"
                  value={to}
                  onChange={(event) => setTo(event.target.value)}
                  error={shown('to') !== undefined}
                  helperText={shown('to')}
                  slotProps={{ inputLabel: { shrink: true } }}
                  required
                />
              </FieldRow>
              {outsideWarning('status')}
              <Box>
                <TextField
                  id={ids.title}
                  label="Title"
                  value={titleValue}
                  onChange={(event) => setTitle(event.target.value)}
                  error={titleLimit.error || shown('title') !== undefined}
                  helperText={shown('title') ?? titleLimit.helperText}
                  required
                  fullWidth
                />
                {titleLimit.status}
              </Box>
              <LimitedTextField
                id={ids.teamName}
                label="Company or team on the cover"
                value={teamValue}
                max={reportLimits.teamNameMax}
                limitLabel="The company or team name"
                onChange={(event) => setTeamName(event.target.value)}
                // Until the stored name arrives (not while offline, when it would wait for good).
                disabled={
                  teamName === null && workspace.isPending && workspace.fetchStatus === 'fetching'
                }
                helperText={
                  workspace.isError && teamName === null
                    ? 'The workspace’s name could not be loaded: type one, or the server puts it on the cover.'
                    : 'For this report only: the workspace’s name is an admin setting.'
                }
                fullWidth
              />
              <LayoutField value={layout} onChange={setLayout} />
              <LimitedTextField
                id={ids.intro}
                label="Intro"
                value={intro}
                max={reportLimits.introMax}
                limitLabel="The intro"
                onChange={(event) => setIntro(event.target.value)}
                helperText="Optional. Printed on the cover: weather, crew, what was done, what to look at."
                multiline
                minRows={3}
                fullWidth
              />
              <Typography variant="body2" color="text.secondary">
                Times in the report are written in {timeZone}, this device’s time zone.
              </Typography>
            </Stack>
          </Paper>

          <Paper variant="outlined" component="section" aria-labelledby={ids.photos} sx={{ p: 2 }}>
            <Typography
              id={ids.photos}
              variant="h2"
              tabIndex={-1}
              sx={{ mb: 0.5, outline: 'none' }}
            >
              Photos
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              The report starts with the photos {rangeWords}, in the order they were taken. Add,
              remove and reorder them below.
            </Typography>
            {shown('photos') ? (
              <Typography role="alert" color="error" variant="body2" sx={{ mb: 1.5 }}>
                {shown('photos')}
              </Typography>
            ) : null}
            {photos === undefined ? (
              feed.error !== null ? (
                <ErrorState
                  error={feed.error}
                  title="Could not load the project’s photos"
                  onRetry={feed.retry}
                />
              ) : (
                <TileGridSkeleton count={4} label="Loading the project’s photos…" />
              )
            ) : (
              <Stack spacing={2}>
                <RangeStatus
                  loading={loading}
                  loaded={photos.length}
                  inRange={rangeIds.length}
                  full={partialBecauseFull}
                  rangeWords={rangeWords}
                  from={from}
                  feed={feed}
                />
                {picked !== null && rangeOk && !sameIds(selectedIds, rangeIds) ? (
                  <Alert
                    severity="info"
                    action={
                      <Button color="inherit" size="small" onClick={() => setPicked(null)}>
                        Use photos in range
                      </Button>
                    }
                  >
                    You picked the photos by hand, so changing the dates leaves them as they are.
                  </Alert>
                ) : null}
                <PhotoPicker
                  photos={photos}
                  inRange={inRange}
                  rangeText={rangeWords}
                  selected={selectedIds}
                  onToggle={onToggle}
                  onAddAll={onAddAll}
                  onRemoveAll={onRemoveAll}
                />
                {feed.hasMore && loading !== 'loading' ? (
                  <Box>
                    <Button variant="outlined" loading={feed.loadingMore} onClick={feed.loadMore}>
                      Load older photos
                    </Button>
                  </Box>
                ) : null}
                <Box component="section" aria-labelledby={`${ids.photos}-order`}>
                  <Typography id={`${ids.photos}-order`} variant="h3" sx={{ mb: 1 }}>
                    In the report: {selected.length} {selected.length === 1 ? 'photo' : 'photos'}
                  </Typography>
                  {selected.length === 0 ? (
                    <Typography variant="body2" color="text.secondary">
                      No photo yet: tick the photos above that the report should show.
                    </Typography>
                  ) : (
                    <>
                      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                        Drag a photo by its handle, or use the arrows, to change the order. Each
                        caption starts as the photo’s description.
                      </Typography>
                      <SelectedPhotos
                        photos={selected}
                        captionOf={captionOf}
                        onCaptionChange={onCaptionChange}
                        onMove={onMove}
                        onRemove={onRemove}
                      />
                    </>
                  )}
                  {shown('captions') ? (
                    <Typography role="alert" color="error" variant="body2" sx={{ mt: 1 }}>
                      {shown('captions')}
                    </Typography>
                  ) : null}
                </Box>
              </Stack>
            )}
          </Paper>
        </Stack>

        <Box
          component="section"
          aria-labelledby={ids.preview}
          // Scrolls on its own beside the form on wide screens: focusable, so the keyboard can too.
          tabIndex={0}
          sx={{
            gridArea: 'preview',
            minWidth: 0,
            position: { md: 'sticky' },
            top: { md: 80 },
            maxHeight: { md: 'calc(100vh - 96px)' },
            overflowY: { md: 'auto' },
            p: 0.5,
            '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
          }}
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
            <AutoAwesomeMotionOutlined aria-hidden color="action" />
            <Typography id={ids.preview} variant="h2">
              Preview
            </Typography>
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            The first pages, drawn small. The PDF prints the full-size photos.
          </Typography>
          <ReportPreview
            cover={{
              teamName: teamValue,
              typeLabel: reportTypeLabels[type],
              title: titleValue,
              projectName: project.name,
              projectLocation: project.location,
              authorName: `${user.firstname} ${user.lastname}`,
              rangeText: formatDayRange(from, to),
              photoCount: selected.length,
              intro,
              timeZone,
            }}
            layout={layout}
            photos={selected}
            captionOf={captionOf}
          />
        </Box>
        <Stack spacing={1.5} sx={{ minWidth: 0, gridArea: 'submit' }}>
          {!online ? (
            <Alert severity="warning" role="status">
              <AlertTitle>You are offline</AlertTitle>
              Generating a report needs a connection to the server. Everything entered here stays as
              it is; Generate report works again once you are back online.
            </Alert>
          ) : null}
          {outsideWarning('note')}
          {checked && problemList.length > 0 ? (
            <Alert severity="error" role="alert">
              <AlertTitle>The report cannot be generated yet</AlertTitle>
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {problemList.map(([field, message]) => (
                  <li key={field}>{message}</li>
                ))}
              </Box>
            </Alert>
          ) : null}
          {serverError && !sending ? (
            <Alert severity="error" role="alert">
              <AlertTitle>The report was not made</AlertTitle>
              {unreachable
                ? 'Could not reach the server. Everything entered here is kept: try again when the connection is back.'
                : `${errorMessage(serverError)} Everything entered here is kept.`}
            </Alert>
          ) : null}
          <Stack
            direction="row"
            spacing={1.5}
            useFlexGap
            sx={{ alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Button
              type="button"
              onClick={generate}
              variant="contained"
              size="large"
              startIcon={<PictureAsPdfOutlined />}
              loading={sending}
              loadingPosition="start"
              disabled={!online}
            >
              Generate report
            </Button>
            <Typography variant="body2" color="text.secondary">
              {selected.length} {selected.length === 1 ? 'photo' : 'photos'}, {layout} per page. The
              PDF is made on the server; its page shows the progress.
            </Typography>
          </Stack>
        </Stack>
      </Box>
    </Box>
  );
}

/** Where reading the project's photos for the range stands. */
function RangeStatus({
  loading,
  loaded,
  inRange,
  full,
  rangeWords,
  from,
  feed,
}: {
  loading: ReturnType<typeof useRangeLoading>;
  loaded: number;
  inRange: number;
  full: boolean;
  rangeWords: string;
  from: string;
  feed: ProjectPhotoFeed;
}) {
  const photosWord = (n: number) => `${numberFormat.format(n)} ${n === 1 ? 'photo' : 'photos'}`;
  if (loading === 'loading')
    return (
      <Box role="status">
        <Typography variant="body2" sx={{ mb: 0.5 }}>
          Loading the project’s photos… {photosWord(loaded)} so far.
        </Typography>
        <LinearProgress aria-hidden />
      </Box>
    );
  if (feed.error !== null)
    return (
      <ErrorState
        error={feed.error}
        title="Could not load more of the project’s photos"
        onRetry={feed.retry}
      />
    );
  if (full)
    return (
      <Typography variant="body2" color="text.secondary">
        More than {reportLimits.photosMax} photos were {rangeWords}: the report takes the first{' '}
        {reportLimits.photosMax}, the most it can hold.
      </Typography>
    );
  if (loading === 'partial' && feed.hasMore && isDay(from))
    return (
      <Typography variant="body2" color="text.secondary">
        {photosWord(inRange)} {rangeWords} so far. Only the{' '}
        {photosWord(Math.min(loaded, AUTO_LOAD_MAX))} uploaded last are loaded: load older photos to
        find the rest of the range.
      </Typography>
    );
  return (
    <Typography variant="body2" color="text.secondary">
      {inRange === 0 ? 'No photos' : photosWord(inRange)} {rangeWords}.
    </Typography>
  );
}
