import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { LRUCache } from 'lru-cache';

/** Distinct SQL texts kept prepared: the app has a few dozen queries (IN lists vary in length). */
const STATEMENTS = 500;

/**
 * The SQLite database as Kysely's driver sees it, with prepared statements reused by SQL text.
 * Kysely's driver prepares every query anew, and preparing was a tenth of a simple call's CPU.
 * A statement still being iterated (a streamed query) is never handed out twice: a fresh one is
 * prepared for the second caller. SQLite re-prepares a cached statement by itself after a schema
 * change (a migration).
 */
export function withStatementCache(db: SQLite.Database): SqliteDatabase {
  const cache = new LRUCache<string, SQLite.Statement>({ max: STATEMENTS });
  return {
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = db.prepare(sql);
      if (!cached) cache.set(sql, statement);
      return statement;
    },
    close() {
      cache.clear();
      db.close();
    },
  };
}
