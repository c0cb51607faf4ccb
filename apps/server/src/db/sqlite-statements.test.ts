import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './sqlite-statements.js';

let raw: SQLite.Database;
afterEach(() => {
  if (raw.open) raw.close();
});

function counted() {
  raw = new SQLite(':memory:');
  raw.exec('create table t (n integer); insert into t values (1), (2), (3);');
  let prepares = 0;
  const original = raw.prepare.bind(raw);
  raw.prepare = ((sql: string) => {
    prepares += 1;
    return original(sql);
  }) as typeof raw.prepare;
  return { db: withStatementCache(raw), prepares: () => prepares };
}

describe('SQLite statement cache', () => {
  it('prepares each SQL text once and reuses the statement', () => {
    const { db, prepares } = counted();
    for (let i = 0; i < 5; i++)
      expect(db.prepare('select n from t where n > ?').all([1])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(prepares()).toBe(1);
    db.prepare('select count(*) as c from t').all([]);
    expect(prepares()).toBe(2);
  });

  it('hands a statement that is still being iterated to no one else', () => {
    const { db } = counted();
    const sql = 'select n from t order by n';
    const outer = db.prepare(sql).iterate([]);
    const seen: number[] = [];
    for (const row of outer as Iterable<{ n: number }>) {
      // The same query while the first is mid-iteration: a second statement, not "busy" errors.
      seen.push(row.n, (db.prepare(sql).all([]) as { n: number }[]).length);
    }
    expect(seen).toEqual([1, 3, 2, 3, 3, 3]);
  });

  it('keeps working across a schema change (a migration)', () => {
    const { db } = counted();
    const sql = 'select * from t where n = ?';
    expect(db.prepare(sql).all([1])).toEqual([{ n: 1 }]);
    raw.exec('alter table t add column label text');
    expect(db.prepare(sql).all([1])).toEqual([{ n: 1, label: null }]);
  });
});

describe('rows of statements with spelled-out columns', () => {
  it('are the objects better-sqlite3 makes: names, aliases, duplicates, nulls and types', () => {
    const { db } = counted();
    raw.exec(
      "create table u (id integer primary key, name text, score real, data blob); insert into u values (1, 'a', 1.5, x'01'), (2, null, null, null);",
    );
    const sql =
      'select u.id, u.name, u.score as "the score", u.data, t.n, t.n + 10 as id from u join t on t.n = u.id order by u.id';
    const expected = raw.prepare(sql).all();
    expect(db.prepare(sql).all([])).toEqual(expected);
    expect(db.prepare(sql).all([])).toEqual(expected);
    expect([...db.prepare(sql).iterate([])]).toEqual(expected);
    expect(expected).toEqual([
      // Two columns named id: the later one wins, in better-sqlite3's objects and in ours.
      { id: 11, name: 'a', 'the score': 1.5, data: Buffer.from([1]), n: 1 },
      { id: 12, name: null, 'the score': null, data: null, n: 2 },
    ]);
    // Plain objects, like better-sqlite3's.
    expect(Object.getPrototypeOf((db.prepare(sql).all([]) as object[])[0])).toBe(Object.prototype);
  });

  it('leave writes as they are', () => {
    const { db } = counted();
    expect(db.prepare('insert into t (n) values (?)').run([4]).changes).toBe(1);
    expect(db.prepare('select n from t where n = ?').all([4])).toEqual([{ n: 4 }]);
  });
});
