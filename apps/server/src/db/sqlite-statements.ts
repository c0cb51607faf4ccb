import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { LRUCache } from 'lru-cache';

/** Distinct SQL texts kept prepared: the app has a few dozen queries (IN lists vary in length). */
const STATEMENTS = 500;

type Row = Record<string, unknown>;

/**
 * A function that turns one row, read as an array, into the object better-sqlite3 would have
 * made, or null where that shortcut would not be exact.
 *
 * better-sqlite3 builds each row object key by key in C++, and that was most of a feed's SQLite
 * time (18 rows × 20 columns: ~100 µs as objects, ~50 µs as arrays). An object literal of a
 * fixed shape costs next to nothing in V8, so rows are read as arrays and turned into objects by
 * a function generated once per statement. The generated code only holds the column names, each
 * a JSON string literal.
 *
 * Only for statements whose columns are spelled out: the names of `select *` change when the
 * table does (a migration), while the statement stays cached.
 */
function rowBuilder(sql: string, statement: SQLite.Statement): ((values: unknown[]) => Row) | null {
  if (!statement.reader || sql.includes('*')) return null;
  const names = statement.columns().map((column) => column.name);
  if (names.includes('__proto__')) return null;
  // Later duplicates win, as they do in better-sqlite3's own objects.
  const body = `return {${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')}};`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- column names as JSON literals only
  return new Function('v', body) as (values: unknown[]) => Row;
}

/** A cached statement as Kysely's driver uses it. */
interface Cached {
  statement: SQLite.Statement;
  /** The statement as handed to Kysely: rows built from arrays where that is exact. */
  facade: SqliteStatement;
}

function cached(sql: string, statement: SQLite.Statement): Cached {
  const build = rowBuilder(sql, statement);
  if (!build) return { statement, facade: statement };
  statement.raw(true);
  const facade: SqliteStatement = {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(build),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as Iterable<unknown[]>)
        yield build(values);
    },
  };
  return { statement, facade };
}

/**
 * The SQLite database as Kysely's driver sees it, with prepared statements reused by SQL text.
 * Kysely's driver prepares every query anew, and preparing was a tenth of a simple call's CPU.
 * A statement still being iterated (a streamed query) is never handed out twice: a fresh one is
 * prepared for the second caller. SQLite re-prepares a cached statement by itself after a schema
 * change (a migration).
 */
export function withStatementCache(db: SQLite.Database): SqliteDatabase {
  const cache = new LRUCache<string, Cached>({ max: STATEMENTS });
  return {
    prepare(sql: string): SqliteStatement {
      const hit = cache.get(sql);
      if (hit && !hit.statement.busy) return hit.facade;
      const entry = cached(sql, db.prepare(sql));
      if (!hit) cache.set(sql, entry);
      return entry.facade;
    },
    close() {
      cache.clear();
      db.close();
    },
  };
}
