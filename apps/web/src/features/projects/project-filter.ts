import type { ProjectListItem } from './api/get-project-rows';

/** Case- and accent-insensitive text for filtering ("zurich" finds "Zürich"). */
const foldText = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * How a project list is filtered wherever it is (All projects, the uploader's chooser): a
 * project matches when its number, name, location or creator together hold every word typed.
 * The folded text is computed once per list, so a keystroke over 10,000 rows stays cheap.
 */
export function createProjectFilter<T extends ProjectListItem>(items: T[]): (query: string) => T[] {
  // Folded once, on the first query that has words: an empty filter (the table's first view of
  // 100,000 projects) never pays for it.
  let searchable: { item: T; text: string }[] | null = null;
  return (query) => {
    const terms = foldText(query).split(/\s+/).filter(Boolean);
    if (terms.length === 0) return items;
    searchable ??= items.map((item) => ({
      item,
      text: foldText(`${item.id} ${item.name} ${item.location} ${item.creatorName}`),
    }));
    return searchable
      .filter(({ text }) => terms.every((term) => text.includes(term)))
      .map(({ item }) => item);
  };
}
