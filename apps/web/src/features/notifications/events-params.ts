import type { EventsFilter } from './api/keys';

/** An id from the address: a positive whole number, else no filter. */
function readId(value: string | null): number | null {
  if (value === null || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/** The timeline's filters from /events?project=…&actor=… (anything unreadable is no filter). */
export function readEventsFilter(params: URLSearchParams): EventsFilter {
  return { project: readId(params.get('project')), actor: readId(params.get('actor')) };
}

/** The address's parameters with `changes` applied (other parameters kept). */
export function writeEventsFilter(
  params: URLSearchParams,
  changes: Partial<EventsFilter>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['project', 'actor'] as const) {
    if (!(key in changes)) continue;
    const value = changes[key];
    if (value === null || value === undefined) next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}
