import type { SearchRequest } from './search';

/** Query keys of the search feature: one root, so a change anywhere can drop every result. */
export const searchKeys = {
  all: ['search'] as const,
  /** The top bar's dropdown: the first few of each section. */
  typeAhead: (q: string) => [...searchKeys.all, 'type-ahead', q] as const,
  /** One section's pages for one request (without the cursor, which is the page parameter). */
  section: (request: Omit<SearchRequest, 'before'>) =>
    [...searchKeys.all, 'section', request] as const,
};
