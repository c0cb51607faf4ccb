import { CompiledQuery, type Compilable } from 'kysely';
import type { Database } from './database.js';

/**
 * A query built and compiled once per database, then run with new values. Building and
 * compiling with Kysely costs about three times what SQLite takes to run a simple indexed query,
 * and the hot queries (the session of every request, the feeds) have one fixed shape.
 *
 * `build` is called once with placeholder values; each must reach the SQL as a parameter of its
 * own (a `where`, a `limit`), which is checked. Queries whose shape depends on the values (an
 * `in` list, an optional cursor) stay ordinary Kysely queries.
 */
export function compiledQuery<Args extends unknown[], Row>(
  build: (db: Database, ...args: Args) => Compilable<Row>,
  arity: Args['length'],
): (db: Database, ...args: Args) => Promise<Row[]> {
  const compiled = new WeakMap<Database, { sql: string; slots: (number | { value: unknown })[] }>();
  const prepare = (db: Database) => {
    const placeholders = Array.from({ length: arity }, (_, i) => `\u0000compiled-query-arg-${i}`);
    const query = build(db, ...(placeholders as Args)).compile();
    const slots = query.parameters.map((value) => {
      const index = placeholders.indexOf(value as string);
      return index === -1 ? { value } : index;
    });
    for (let i = 0; i < arity; i++)
      if (!slots.includes(i))
        throw new Error(`compiledQuery: argument ${i} does not reach the SQL as a parameter`);
    const entry = { sql: query.sql, slots };
    compiled.set(db, entry);
    return entry;
  };
  return async (db, ...args) => {
    const { sql, slots } = compiled.get(db) ?? prepare(db);
    const parameters = slots.map((slot) => (typeof slot === 'number' ? args[slot] : slot.value));
    const result = await db.executeQuery<Row>(CompiledQuery.raw(sql, parameters));
    return result.rows;
  };
}
