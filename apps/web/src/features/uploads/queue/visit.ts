// An uploader visit: the photos taken for one project since the uploader was opened, which the
// batch editor lists. Kept per tab (sessionStorage), so a reload stays in the same visit and
// DONE starts a new one.
const key = (projectId: number) => `sitelog.visit.${projectId}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The current visit of `projectId` in this tab, started when there is none. */
export function visitIdFor(projectId: number): string {
  const store = storage();
  const current = store?.getItem(key(projectId));
  if (current) return current;
  const id = crypto.randomUUID();
  store?.setItem(key(projectId), id);
  return id;
}

/** Ends the visit (DONE): the next photo of the project starts a new one. */
export function endVisit(projectId: number): void {
  storage()?.removeItem(key(projectId));
}
