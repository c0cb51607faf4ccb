/**
 * How place suggestions are ranked: by how well a place's key matches the query (its whole name,
 * the start of a name, the start of a later word of its name), then by score (population, a
 * tenth of it for alternate names). Used for queries as they come and, at load, for the short
 * prefixes whose suggestions are precomputed.
 */

/** What a search key is of its place: one of its own names, a later word of one, an alias. */
export const KeyKind = { name: 0, word: 1, alternate: 2 } as const;
export type KeyKind = (typeof KeyKind)[keyof typeof KeyKind];

/**
 * How a key that starts with the query matches it: it is the place's own name (`name`), an
 * alternate name (`alias`: an exonym, another script, a code), the start of either (`prefix`),
 * or the start of a later word of the place's own name (`word`).
 */
export type Match = 'name' | 'alias' | 'prefix' | 'word';

export function matchOf(kind: number, key: string, query: string): Match {
  if (kind === KeyKind.word) return 'word';
  if (key.length !== query.length) return 'prefix';
  return kind === KeyKind.name ? 'name' : 'alias';
}

/** Candidates of one tier, in score order, one per label; `at` is each one's score position. */
interface Tier {
  ids: number[];
  at: number[];
}

const emptyTier = (): Tier => ({ ids: [], at: [] });

/**
 * Ranks candidates: places named exactly as the query first, then names starting with it,
 * then later words starting with it; by score within each. An alias equal to the query (Cologne
 * for Köln, Roma for Rome) joins the exact matches only ahead of a place of that very name,
 * i.e. when its tenth of the population is still the bigger score; otherwise, or when no place
 * bears the name, it ranks among the names starting with the query. Aliases include codes and
 * odd transliterations ("York" for Warner Robins, "Sa" for a Thai district), which must not
 * push real names aside.
 *
 * Candidates are offered in score order (`at` ascending), except that the keys equal to the
 * query may all be offered first. Each tier keeps its best `limit` labels.
 */
export class Ranking {
  private readonly exact = emptyTier();
  private readonly prefix = emptyTier();
  private readonly word = emptyTier();
  /** Aliases equal to the query; whether they lead depends on the first own name equal to it. */
  private readonly aliases = emptyTier();
  private firstNameAt = -1;

  constructor(
    private readonly labels: readonly string[],
    private readonly limit: number,
  ) {}

  offer(id: number, match: Match, at: number): void {
    if (match === 'prefix') this.add(this.prefix, id, at);
    else if (match === 'word') this.add(this.word, id, at);
    else if (match === 'alias') this.add(this.aliases, id, at);
    else {
      if (this.firstNameAt === -1 || at < this.firstNameAt) this.firstNameAt = at;
      this.add(this.exact, id, at);
    }
  }

  /** Whether a candidate matching so could still enter (its tier has room). */
  wants(match: Match): boolean {
    const tier =
      match === 'prefix'
        ? this.prefix
        : match === 'word'
          ? this.word
          : match === 'alias'
            ? this.aliases
            : this.exact;
    return tier.ids.length < this.limit;
  }

  /** Enough names start with the query that lower-scored candidates cannot enter. */
  get complete(): boolean {
    return this.prefix.ids.length >= this.limit;
  }

  /** The ranked ids, one per label, at most `limit`. */
  ranked(): number[] {
    if (this.aliases.ids.length === 0)
      return bestDistinct(
        [this.exact.ids, this.prefix.ids, this.word.ids],
        this.labels,
        this.limit,
      );
    const leading = emptyTier();
    const trailing = emptyTier();
    this.aliases.ids.forEach((id, i) => {
      const at = this.aliases.at[i] ?? 0;
      const tier = this.firstNameAt !== -1 && at < this.firstNameAt ? leading : trailing;
      tier.ids.push(id);
      tier.at.push(at);
    });
    return bestDistinct(
      [merge(leading, this.exact), merge(trailing, this.prefix), this.word.ids],
      this.labels,
      this.limit,
    );
  }

  private add(tier: Tier, id: number, at: number): void {
    const { ids, at: positions } = tier;
    if (ids.length >= this.limit) return;
    const label = this.labels[id];
    for (const other of ids) if (this.labels[other] === label) return;
    ids.push(id);
    positions.push(at);
  }
}

/** Two tiers' ids in one score order. */
function merge(a: Tier, b: Tier): number[] {
  const ids: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.ids.length || j < b.ids.length) {
    const takeA = j >= b.ids.length || (i < a.ids.length && (a.at[i] ?? 0) <= (b.at[j] ?? 0));
    ids.push((takeA ? a.ids[i++] : b.ids[j++]) ?? 0);
  }
  return ids;
}

/** The first `limit` places of the tiers in order, one per label. */
function bestDistinct(
  tiers: readonly (readonly number[])[],
  labels: readonly string[],
  limit: number,
): number[] {
  const best: number[] = [];
  const seen = new Set<string>();
  for (const ids of tiers) {
    for (const id of ids) {
      if (best.length >= limit) return best;
      const label = labels[id] ?? '';
      if (seen.has(label)) continue;
      seen.add(label);
      best.push(id);
    }
  }
  return best;
}
