import { reportLimits, type Upload } from '@sitelog/shared';
import { useEffect, useRef } from 'react';
import { parseApiTime } from '@/lib/format-photo-time';
import { dayIn } from './report-dates';

/**
 * The project's photos as the page hands them to the creator: its feed (newest upload first),
 * read page by page. The page composes it from the uploads feature's feed query, so the creator
 * and the project page share one cache entry.
 */
export interface ProjectPhotoFeed {
  /** The photos loaded so far, newest upload first; undefined until the first page is in. */
  photos: Upload[] | undefined;
  /** Why the last page asked for could not be loaded; null otherwise. */
  error: unknown;
  /** Whether older photos are left to load. */
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  /** Asks again for what failed (the first page, or the next one). */
  retry: () => void;
}

/**
 * Photos the creator loads by itself to reach the start of the range: past this many, the user
 * asks for older ones ("Load older photos"). A range long ago in a busy project would otherwise
 * read the whole feed before the form is usable.
 */
export const AUTO_LOAD_MAX = 1000;

/** The day a photo counts in: the day it was uploaded, in the report's time zone. */
export const photoDay = (photo: Pick<Upload, 'createdAt'>, timeZone: string): string =>
  dayIn(photo.createdAt, timeZone) ?? '';

/** When the photo was taken, or uploaded when the camera did not say (ms, for ordering). */
export function takenAt(photo: Pick<Upload, 'capturedAt' | 'createdAt'>): number {
  const time = parseApiTime(photo.capturedAt ?? photo.createdAt) ?? parseApiTime(photo.createdAt);
  return time?.getTime() ?? 0;
}

/**
 * The photos uploaded from `from` to `to` (inclusive days in `timeZone`), in the order they were
 * taken (oldest first, by upload time where the camera gave none, then by id), at most
 * `reportLimits.photosMax`: the report's photos until the user picks by hand.
 */
export function photosInRange(
  photos: readonly Upload[],
  from: string,
  to: string,
  timeZone: string,
): Upload[] {
  if (from === '' || to === '' || from > to) return [];
  return photos
    .filter((photo) => {
      const day = photoDay(photo, timeZone);
      return day >= from && day <= to;
    })
    .sort((a, b) => takenAt(a) - takenAt(b) || a.id - b.id)
    .slice(0, reportLimits.photosMax);
}

/**
 * Whether every photo of the range is loaded: the feed is newest upload first, so once a photo
 * from before `from` is in (or the feed has no more), nothing older can fall in the range.
 */
export function rangeLoaded(
  feed: Pick<ProjectPhotoFeed, 'photos' | 'hasMore'>,
  from: string,
  timeZone: string,
): boolean {
  const photos = feed.photos;
  if (photos === undefined) return false;
  if (!feed.hasMore) return true;
  const oldest = photos.at(-1);
  return oldest !== undefined && from !== '' && photoDay(oldest, timeZone) < from;
}

export type RangeLoading =
  /** Still reading the feed towards the start of the range. */
  | 'loading'
  /** Every photo of the range is in. */
  | 'complete'
  /** Stopped short of it: the cap, a full report, or an error. "Load older photos" goes on. */
  | 'partial';

/**
 * Reads the feed page after page until the range (starting `from`, '' when there is none) is
 * covered, the range holds a full report
 * (`photosMax`), AUTO_LOAD_MAX photos are in, or a page fails. Only asks for a page once the one
 * before has arrived.
 */
export function useRangeLoading(
  feed: ProjectPhotoFeed,
  from: string,
  inRange: number,
  timeZone: string,
): RangeLoading {
  const loaded = feed.photos?.length ?? 0;
  const covered = rangeLoaded(feed, from, timeZone);
  // No range (a date missing or the wrong way round): nothing to reach.
  const stopped =
    from === '' ||
    inRange >= reportLimits.photosMax ||
    loaded >= AUTO_LOAD_MAX ||
    feed.error !== null;
  const needMore =
    feed.photos !== undefined && !covered && !stopped && feed.hasMore && !feed.loadingMore;
  const loadMore = useRef(feed.loadMore);
  useEffect(() => {
    loadMore.current = feed.loadMore;
  });
  // Keyed on the count loaded: one request per page that arrived, never two at once.
  const trigger = needMore ? loaded : -1;
  useEffect(() => {
    if (trigger >= 0) loadMore.current();
  }, [trigger]);
  if (covered) return 'complete';
  if (feed.photos === undefined || (!stopped && (needMore || feed.loadingMore))) return 'loading';
  return 'partial';
}
