// Making report PDFs, off the request path. The database is the queue: a new or re-generated
// report is a row with status `queued`; each instance takes rows one by one (an atomic claim,
// so two instances never make the same PDF) and makes at most `REPORT_CONCURRENCY` at once. A
// claim is a random token on the row: every later write of the run is guarded by it, so a run
// whose report was taken over (stale) writes nothing more.
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { reportTypeLabels, type ReportType } from '@sitelog/shared';
import type { Config } from '../../config.js';
import { isDatabaseUnavailable, outageReason } from '../../db/database-errors.js';
import { nowIso, writeTransaction, type Database } from '../../db/database.js';
import { loadOnce } from '../../load-once.js';
import { createLimiter } from '../../media/limiter.js';
import { newReportKey } from '../../media/media-types.js';
import { StorageError, type Storage } from '../../media/storage/index.js';
import { isNoSpaceError, throwDiskError } from '../../media/storage/storage-error.js';
import { removeFile } from '../../media/temp-files.js';
import { recordReportCreated } from '../events/events.service.js';
import { findNearestPlace } from '../places/places.service.js';
import type { renderReportPdf, ReportPdfCover, ReportPdfPhoto } from './report-pdf.js';
import * as repo from './reports.repository.js';

/** Suffix of a PDF being written; the media sweeper removes stale files of the temp folder. */
export const TEMP_REPORT_SUFFIX = '.report.pdf';

/** Progress is written at most this often (it is also the generation's heartbeat). */
const PROGRESS_INTERVAL_MS = 250;
/** While one photo or the upload to storage takes long, the heartbeat is still written. */
const HEARTBEAT_MS = 30_000;
/** Claims of one report (a person's request) before a report that keeps stopping its process fails. */
export const REPORT_MAX_ATTEMPTS = 3;

export interface ReportLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ReportGeneratorDeps {
  db: Database;
  storage: Storage;
  config: Pick<Config, 'uploads'>;
  log: ReportLogger;
  /** The PDF renderer (tests wrap it); `renderReportPdf` unless given. */
  render?: typeof renderReportPdf;
  /** The place name printed beside a photo's GPS; the places service's nearest place unless given. */
  placeName?: (latitude: number, longitude: number) => Promise<string | null>;
}

/**
 * The PDF renderer, imported on the first report: pdfkit and fontkit cost ~0.3 s to load, which
 * a server (or a test file) that makes no report need not pay at start.
 */
const loadRenderer = loadOnce(async () => (await import('./report-pdf.js')).renderReportPdf);

/** A failure whose message is for the report's reader (`reports.error`), not a stack. */
class ReportJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ReportJobError';
  }
}

/** The report is not ours to finish any more: deleted, or its claim taken over, while it was made. */
class ReportGone extends Error {
  constructor() {
    super('the report is no longer being generated here');
    this.name = 'ReportGone';
  }
}

const GENERIC_FAILURE =
  'The PDF could not be made because of an error on the server. Try again; if it fails again, tell your admin.';
const DISK_FULL =
  'The PDF could not be made: the server has run out of disk space. Ask an administrator to free space, then try again.';
/** A report none of whose photos is left (deleted, or moved to another project). */
export const NOTHING_LEFT =
  'Every photo of this report was deleted; there is nothing to make a PDF of.';
/** A report whose generation stopped its process (or was stalled) every time it was claimed. */
export const TOO_MANY_ATTEMPTS = `The PDF could not be made after ${REPORT_MAX_ATTEMPTS} tries: the server stopped while making it each time. Try again later; if it fails again, tell your admin.`;

/**
 * Why a report whose PDF exists is not made again: some of its photos are gone (deleted, or
 * moved to another project) since, and a new PDF would leave them out while replacing the one
 * that holds them. `madeAt` is when that PDF was made, written in the report's time zone.
 */
export function photosGoneSincePdf(
  gone: { deleted: number; moved: number },
  madeAt: string,
  timeZone: string,
): string {
  const n = gone.deleted + gone.moved;
  const what =
    gone.moved === 0
      ? 'deleted'
      : gone.deleted === 0
        ? 'moved to another project'
        : 'deleted or moved to another project';
  let day: string;
  try {
    day = new Date(madeAt).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone,
    });
  } catch {
    day = madeAt.slice(0, 10);
  }
  return n === 1
    ? `1 photo of this report was ${what} since its PDF was made on ${day}; making it again would leave it out. The PDF keeps it; make a new report instead.`
    : `${n} photos of this report were ${what} since its PDF was made on ${day}; making it again would leave them out. The PDF keeps them; make a new report instead.`;
}

/** What people read when storing the finished PDF failed. */
function storeFailure(err: unknown): string {
  if (err instanceof StorageError && err.reason === 'full')
    return 'The PDF could not be stored: the server has run out of storage space. Ask an administrator to free space, then try again.';
  return 'The PDF could not be stored: file storage cannot be reached right now. Try again in a minute.';
}

const photoLabel = (row: repo.PhotoToPrint) => `Photo #${row.position} (“${row.name}”)`;

/** The label of the gazetteer's nearest place ("Munich, Germany"), printed as "near …". */
async function nearestPlaceName(latitude: number, longitude: number): Promise<string | null> {
  const { place } = await findNearestPlace(latitude, longitude);
  return place?.label ?? null;
}

/** SHA-256 (hex) of a stored object, streamed (an original may be tens of MB); null if gone. */
async function hashStoredObject(storage: Storage, key: string): Promise<string | null> {
  const object = await storage.stream(key);
  if (!object) return null;
  const hash = createHash('sha256');
  for await (const chunk of object.body) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Where a running job is: the last photo drawn, and who it belongs to. */
interface JobState {
  id: number;
  /** The report had a PDF when the run started (a re-generation): the PDF keeps what is gone. */
  hadPdf: boolean;
  done: number;
  lastWrite: number;
  /** The first problem the photo reader met, with its message for people. */
  failure: ReportJobError | null;
}

/**
 * The report's photos as the renderer takes them, one at a time: each one's display image is
 * read from storage only when the renderer asks for it, so one photo's bytes are in memory at
 * once. `hashes` collects the SHA-256 printed for each.
 */
async function* photosToPrint(
  deps: ReportGeneratorDeps,
  rows: repo.PhotoToPrint[],
  hashes: { position: number; sha256: string }[],
  job: JobState,
  signal: AbortSignal,
): AsyncGenerator<ReportPdfPhoto> {
  const fail = (message: string, cause?: unknown) => {
    job.failure ??= new ReportJobError(message, { cause });
    return job.failure;
  };
  const placeName = deps.placeName ?? nearestPlaceName;
  for (const row of rows) {
    signal.throwIfAborted();
    let jpeg: Buffer | null;
    try {
      jpeg = await deps.storage.get(row.formatted_key);
    } catch (err) {
      throw fail(`${photoLabel(row)} could not be read from storage. Try again.`, err);
    }
    if (!jpeg) {
      if (!(await repo.uploadExists(deps.db, row.upload_id)))
        throw fail(
          job.hadPdf
            ? `${photoLabel(row)} was deleted while the PDF was being made; the PDF made before keeps it. Make a new report to leave it out.`
            : `${photoLabel(row)} was deleted while the PDF was being made. Generate the report again: it will leave the photo out.`,
        );
      throw fail(`${photoLabel(row)} could not be read from storage. Try again.`);
    }
    let sha256 = row.original_sha256;
    if (sha256 === null) {
      // A photo stored before uploads recorded the fingerprint: computed once, and kept.
      try {
        sha256 = await hashStoredObject(deps.storage, row.original_key);
      } catch (err) {
        throw fail(
          `The original of ${photoLabel(row)} could not be read from storage. Try again.`,
          err,
        );
      }
      if (sha256 === null)
        throw fail(`The original of ${photoLabel(row)} could not be read from storage. Try again.`);
      await repo.fillOriginalSha256(deps.db, row.upload_id, sha256);
    }
    let place: string | null = null;
    if (row.latitude !== null && row.longitude !== null) {
      // The place name is a courtesy: the coordinates are printed either way.
      place = await placeName(row.latitude, row.longitude).catch((err: unknown) => {
        deps.log.error({ err, reportId: job.id }, 'report: nearest place lookup failed');
        return null;
      });
    }
    hashes.push({ position: row.position, sha256 });
    yield {
      position: row.position,
      name: row.name,
      caption: row.caption,
      authorName: `${row.creator_firstname} ${row.creator_lastname}`,
      capturedAt: row.captured_at,
      uploadedAt: row.created_at,
      latitude: row.latitude,
      longitude: row.longitude,
      placeName: place,
      camera: row.camera,
      sha256,
      jpeg,
      width: row.formatted_width,
      height: row.formatted_height,
    };
  }
}

/**
 * How one generation ended: `gone` when the report was deleted or taken from this run (its
 * claim voided) meanwhile, so nothing of it was written; `stopped` when a shutdown queued it
 * again.
 */
export type GenerationOutcome = 'ready' | 'failed' | 'gone' | 'stopped';

/**
 * Makes the PDF of a report this process has claimed (`claim`: status `generating` under its
 * token):
 *
 * 1. reads the report and its photos still in the report (deleted ones and those moved to
 *    another project are left out), and streams them through the renderer into a temp file in
 *    the upload temp folder, writing `progress` at most every 250 ms. A report that has a PDF
 *    already with any photo gone since fails instead (its PDF keeps them; the re-generate call
 *    refuses the same, this catches what was deleted after it);
 * 2. stores the file under a new key, then in one transaction marks the report ready with the
 *    PDF's key, size, pages and photo count, keeps the SHA-256 printed for each photo, and
 *    records the `report.created` event when it is the report's first PDF;
 * 3. then deletes the PDF made before, if any.
 *
 * On any failure the report is `failed` with a message people can act on (the cause is logged),
 * the new object is deleted and the PDF made before stays. A report deleted meanwhile, or taken
 * from this run (its claim voided as stale), loses the new object and is not written; a shutdown
 * (`signal`) puts the report back in the queue. The temp file is always removed.
 */
export async function generateReport(
  deps: ReportGeneratorDeps,
  claim: repo.ReportClaim,
  signal: AbortSignal = new AbortController().signal,
): Promise<GenerationOutcome> {
  const { db, storage, log } = deps;
  const { id } = claim;
  const tempPath = path.join(deps.config.uploads.tempDir, `${randomUUID()}${TEMP_REPORT_SUFFIX}`);
  const job: JobState = { id, hadPdf: false, done: 0, lastWrite: Date.now(), failure: null };
  let storedKey: string | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let heartbeatLost = false;
  try {
    const report = await repo.findReportById(db, id);
    if (!report) return 'gone';
    job.hadPdf = report.pdf_key !== null;
    if (job.hadPdf) {
      const { held } = await repo.countGonePhotos(db, id);
      if (held.deleted + held.moved > 0)
        throw new ReportJobError(
          photosGoneSincePdf(held, report.generated_at ?? report.created_at, report.time_zone),
        );
    }
    const rows = await repo.listPhotosToPrint(db, id);
    if (rows.length === 0) throw new ReportJobError(NOTHING_LEFT);
    const cover: ReportPdfCover = {
      reportId: report.id,
      title: report.title,
      typeLabel: reportTypeLabels[report.type as ReportType] ?? report.type,
      projectName: report.project_name,
      projectLocation: report.project_location,
      authorName: `${report.author_firstname} ${report.author_lastname}`,
      from: report.date_from,
      to: report.date_to,
      photoCount: rows.length,
      teamName: report.team_name,
      intro: report.intro,
      createdAt: report.created_at,
      timeZone: report.time_zone,
    };

    heartbeat = setInterval(() => {
      repo.setReportProgress(db, claim, job.done, nowIso()).then(
        (ours) => {
          if (!ours) heartbeatLost = true;
        },
        (err: unknown) => log.error({ err, reportId: id }, 'report: heartbeat failed'),
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();

    const onPhoto = async (done: number) => {
      job.done = done;
      if (heartbeatLost) throw new ReportGone();
      signal.throwIfAborted();
      const now = Date.now();
      if (now - job.lastWrite < PROGRESS_INTERVAL_MS) return;
      job.lastWrite = now;
      if (!(await repo.setReportProgress(db, claim, done, nowIso()))) throw new ReportGone();
    };

    await mkdir(deps.config.uploads.tempDir, { recursive: true, mode: 0o700 }).catch(
      throwDiskError,
    );
    const hashes: { position: number; sha256: string }[] = [];
    const out = createWriteStream(tempPath, { flags: 'wx', mode: 0o600 });
    let pages: number;
    try {
      const render = deps.render ?? (await loadRenderer());
      ({ pages } = await render({
        cover,
        layout: report.layout as 1 | 2 | 4,
        photos: photosToPrint(deps, rows, hashes, job, signal),
        out,
        onPhoto,
      }));
      if (!out.writableFinished) await finished(out);
    } finally {
      // Closed before the file is removed: a stream still opening would create it afterwards.
      if (!out.closed) {
        const closed = once(out, 'close');
        if (!out.writableFinished) out.destroy();
        await closed;
      }
    }
    signal.throwIfAborted();
    if (heartbeatLost) throw new ReportGone();

    const { size: bytes } = await stat(tempPath);
    const key = newReportKey();
    try {
      await storage.put(key, { filePath: tempPath }, 'application/pdf');
    } catch (err) {
      // A put that failed half-way may have left the object (S3 multipart, a retry).
      storedKey = key;
      throw new ReportJobError(storeFailure(err), { cause: err });
    }
    storedKey = key;

    const at = nowIso();
    const before = await writeTransaction(db, async (trx) => {
      const previous = await repo.markReportReady(trx, claim, {
        key,
        bytes,
        pages,
        photos: hashes.length,
        at,
      });
      if (!previous) return undefined;
      await repo.setReportPhotoHashes(trx, id, hashes);
      if (previous.generated_at === null)
        await recordReportCreated(
          trx,
          {
            id,
            projectId: report.project_id,
            authorId: report.author_id,
            title: report.title,
          },
          at,
        );
      return previous;
    });
    if (!before) throw new ReportGone();
    storedKey = null;
    if (before.pdf_key !== null && before.pdf_key !== key)
      await storage.delete(before.pdf_key).catch((err: unknown) => {
        // The sweeper removes it later: no report names it any more.
        log.error({ err, reportId: id, key: before.pdf_key }, 'report: old PDF not deleted');
      });
    log.info({ reportId: id, photos: hashes.length, pages, bytes }, 'report PDF made');
    return 'ready';
  } catch (err) {
    if (storedKey !== null) {
      const key = storedKey;
      await storage.delete(key).catch((deleteErr: unknown) => {
        log.error({ err: deleteErr, reportId: id, key }, 'report: new PDF not deleted');
      });
    }
    if (err instanceof ReportGone) return 'gone';
    if (signal.aborted && !(err instanceof ReportJobError)) {
      const released = await repo
        .releaseReport(db, claim, nowIso())
        .catch((releaseErr: unknown) => {
          log.error({ err: releaseErr, reportId: id }, 'report: not put back in the queue');
          return true;
        });
      return released ? 'stopped' : 'gone';
    }
    const failure = err instanceof ReportJobError ? err : job.failure;
    const full = isNoSpaceError(err) || (err instanceof StorageError && err.reason === 'full');
    log.error({ err, reportId: id }, 'report PDF failed');
    const recorded = await repo
      .markReportFailed(
        db,
        claim,
        failure?.message ?? (full ? DISK_FULL : GENERIC_FAILURE),
        nowIso(),
      )
      .catch((markErr: unknown) => {
        log.error({ err: markErr, reportId: id }, 'report: failure not recorded');
        return true;
      });
    // Not ours any more (deleted, or taken over): the failure is not this run's to write.
    return recorded ? 'failed' : 'gone';
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    await removeFile(tempPath);
  }
}

export interface ReportQueueOptions {
  /** PDFs made at once by this process; 0: none (another instance makes them). */
  concurrency: number;
  /** How often the database is asked for queued reports another instance added. */
  pollMs?: number;
  /**
   * A report `generating` without progress for this long was left by a process that stopped
   * (crashed, killed): it is queued again.
   */
  staleMs?: number;
}

/** The in-process side of the report queue. */
export interface ReportQueue {
  /** Takes up reports left queued (or stalled) by an earlier process, and starts polling. */
  start(): void;
  /** A report was queued here: a free slot takes it at once. */
  wake(): void;
  /** Stops taking reports; running generations stop at their next photo and are queued again. */
  close(): Promise<void>;
  /** Generations running now in this process. */
  readonly active: number;
}

/**
 * The report queue of one process: at most `concurrency` generations at once (the media
 * layer's limiter), each taking the oldest queued report (`claimReport`), until none is left.
 * Other instances' reports are noticed by polling every `pollMs`.
 */
export function createReportQueue(
  deps: ReportGeneratorDeps,
  options: ReportQueueOptions,
): ReportQueue {
  const { concurrency, pollMs = 5_000, staleMs = 120_000 } = options;
  const limiter = concurrency > 0 ? createLimiter(concurrency) : null;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  // Set by every wake: a worker that found nothing re-reads once, so a report queued while it
  // was looking is not left for the next poll.
  let again = false;

  async function claimNext(): Promise<repo.ReportClaim | undefined> {
    for (;;) {
      const id = await repo.findNextQueuedReport(deps.db);
      if (id === undefined) return undefined;
      const claim = await repo.claimReport(deps.db, id, nowIso());
      if (claim) return claim;
      // Another instance took it first: look again.
    }
  }

  async function worker(): Promise<void> {
    for (;;) {
      if (stopping.signal.aborted) return;
      again = false;
      const claim = await claimNext();
      if (claim === undefined) {
        if (again) continue;
        return;
      }
      await generateReport(deps, claim, stopping.signal);
    }
  }

  function wake(): void {
    again = true;
    if (!limiter || stopping.signal.aborted) return;
    // A worker per free slot; a busy worker takes the next report itself when it is done.
    while (limiter.active + limiter.queued < concurrency) {
      const task: Promise<void> = limiter
        .run(worker)
        .catch((err: unknown) => deps.log.error({ err }, 'report queue: worker failed'))
        .finally(() => running.delete(task));
      running.add(task);
    }
  }

  async function requeueStale(): Promise<void> {
    const { requeued, failed } = await repo.requeueStaleReports(
      deps.db,
      new Date(Date.now() - staleMs).toISOString(),
      { maxAttempts: REPORT_MAX_ATTEMPTS, failure: TOO_MANY_ATTEMPTS, now: nowIso() },
    );
    if (requeued > 0) deps.log.info({ reports: requeued }, 'report queue: took up stalled reports');
    if (failed > 0)
      deps.log.error(
        { reports: failed },
        `report queue: reports stalled ${REPORT_MAX_ATTEMPTS} times, marked failed`,
      );
  }

  function poll(): void {
    if (stopping.signal.aborted) return;
    const task: Promise<void> = requeueStale()
      .then(wake, (err: unknown) => {
        // Every few seconds while the database is down: one line each, no stack.
        if (isDatabaseUnavailable(err))
          deps.log.warn(
            { reason: outageReason(err) },
            'report queue: the database cannot be reached; polling again',
          );
        else deps.log.error({ err }, 'report queue: poll failed');
      })
      .finally(() => running.delete(task));
    running.add(task);
  }

  return {
    get active() {
      return limiter?.active ?? 0;
    },
    start() {
      if (!limiter || timer || stopping.signal.aborted) return;
      poll();
      timer = setInterval(poll, pollMs);
      timer.unref();
    },
    wake,
    async close() {
      stopping.abort(new Error('the server is shutting down'));
      if (timer) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
