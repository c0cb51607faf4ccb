// API fuzz (issue 10, suite 6): every operation in the OpenAPI document (`GET /api/docs`) gets
// generated requests, valid-ish and hostile (path params, query strings, JSON bodies, headers),
// as a member, an admin, a forged token or nobody. No answer may be a 5xx, and no body may carry
// a stack trace. `npm test` sends FUZZ_RUNS=500 in all; `npm run test:soak` sends 5,000.
// The seed is fixed so CI is deterministic; FUZZ_SEED picks another (the run prints its seed).
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUpload, buildUser } from './factories.js';
import { api, createTestContext, login, signedInUser, type TestContext } from './helpers.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
// Fuzzed requests come from their own address, so the login limits they may trip never block
// the sign-ins this suite makes to keep its sessions alive.
const FUZZ_ADDRESS = '203.0.113.77';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: Json[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
}
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema?: Schema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: Schema | null;
}

let ctx: TestContext;
let operations: Operation[] = [];
const ids = { projects: [] as number[], uploads: [] as number[], users: [] as number[] };
const mediaUrls: string[] = [];
const sessions = { member: '', admin: '' };
let memberUser = { email: '', password: '' };
let adminUser = { email: '', password: '' };

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await signedInUser(ctx, { isAdmin: true });
  const member = await signedInUser(ctx);
  adminUser = admin;
  memberUser = member;
  sessions.admin = admin.token;
  sessions.member = member.token;
  const project = await buildProject(ctx, { creatorId: member.id });
  const other = await buildProject(ctx);
  ids.projects.push(project.id, other.id);
  for (let i = 0; i < 3; i += 1) {
    ids.uploads.push(await buildUpload(ctx, { projectId: project.id, creatorId: member.id }));
  }
  ids.users.push(member.id, admin.id, (await buildUser(ctx)).id);
  const full = await api(ctx, {
    method: 'GET',
    url: `/api/upload/full/${ids.uploads[0]}`,
    token: member.token,
  });
  for (const m of full.body.matchAll(/"(\/media\/[^"]+)"/g)) {
    if (m[1]) mediaUrls.push(m[1]);
  }
  const doc = (await api(ctx, { method: 'GET', url: '/api/docs' })).json<{
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Parameter[];
          requestBody?: { content: Record<string, { schema: Schema }> };
        }
      >
    >;
  }>();
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content['application/json']?.schema ?? null,
    })),
  );
}, 60_000);
afterAll(async () => ctx?.close());

const hostileStrings = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '0x10',
  ' 1',
  '١٢',
  '9'.repeat(40),
  String(2 ** 53 + 1),
  '9223372036854775808',
  '../../etc/passwd',
  '..%2F..%2Fetc',
  '%00',
  '\u0000',
  '\r\nX-Injected: 1',
  "' OR 1=1 --",
  '"; drop table users; --',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  '\u202e\u0301\ud83d\ude00',
  '\ud800',
);
const anyString = fc.oneof(
  hostileStrings,
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constant('x'.repeat(100_000)),
);
const anyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, 2 ** 63, 1e308, -1e308, Number.MIN_VALUE),
);
const deepNesting = fc
  .integer({ min: 10, max: 5000 })
  .chain((depth) =>
    fc
      .constantFrom('[', '{"a":')
      .map((open) =>
        open === '['
          ? '['.repeat(depth) + ']'.repeat(depth)
          : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
      ),
  );
const anyJson: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>,
  anyString,
  anyNumber,
  fc.constant(null),
);

/** A value for one schema: mostly the right type, sometimes a hostile one. */
function fromSchema(schema: Schema | undefined, depth = 0): fc.Arbitrary<Json> {
  const hostile = depth > 3 ? anyString : anyJson;
  if (!schema) return hostile;
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => fromSchema(s, depth + 1)), hostile);
  let right: fc.Arbitrary<Json>;
  if (schema.enum) right = fc.constantFrom(...schema.enum);
  else if (schema.type === 'object') {
    const props = Object.entries(schema.properties ?? {});
    right = fc
      .tuple(
        fc.record(
          Object.fromEntries(props.map(([k, s]) => [k, fromSchema(s, depth + 1)])) as Record<
            string,
            fc.Arbitrary<Json>
          >,
          { requiredKeys: [] },
        ),
        fc.dictionary(anyString, anyJson, { maxKeys: 3 }),
      )
      .map(([known, extra]) => ({ ...extra, ...known }) as Json);
  } else if (schema.type === 'array') right = fc.array(fromSchema(schema.items, depth + 1));
  else if (schema.type === 'string')
    right = fc.oneof(fc.emailAddress(), fc.string({ minLength: 1, maxLength: 40 }), anyString);
  else if (schema.type === 'integer')
    right = fc.oneof(
      fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 }),
      anyNumber,
    );
  else if (schema.type === 'number')
    right = fc.oneof(
      fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true }),
      anyNumber,
    );
  else if (schema.type === 'boolean') right = fc.boolean();
  else right = anyJson;
  return fc.oneof(
    { weight: 4, arbitrary: right },
    { weight: 1, arbitrary: schema.nullable ? fc.constant(null) : hostile },
  );
}

/**
 * Percent-encodes a path segment. A lone surrogate cannot be encoded as UTF-8, so it goes out as
 * the bytes of an encoded surrogate (not valid UTF-8): the server must refuse those too.
 */
function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}

/** A path param: an id of a row that exists, or anything else. */
const pathValue = () =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...ids.projects, ...ids.uploads, ...ids.users).map(String),
    },
    { weight: 3, arbitrary: fc.nat({ max: 20 }).map(String) },
    { weight: 2, arbitrary: anyNumber.map(String) },
    { weight: 3, arbitrary: anyString },
  );

/** What is sent as the body: JSON built from the schema, any JSON, or bytes that are not JSON. */
function bodyFor(op: Operation): fc.Arbitrary<string | undefined> {
  const json = op.body ? fromSchema(op.body) : anyJson;
  return fc.oneof(
    { weight: op.body ? 6 : 1, arbitrary: json.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: deepNesting },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '{', '{"a":}', 'null', '"', '\u0000', '{"__proto__":{"x":1}}'),
    },
    { weight: op.body ? 1 : 4, arbitrary: fc.constant(undefined) },
  );
}

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
  'garbage/\u00ff',
);

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'accept',
    'accept-language',
    'accept-encoding',
    'if-none-match',
    'if-modified-since',
    'range',
    'x-forwarded-for',
    'x-forwarded-proto',
    'origin',
    'cookie',
    'x-requested-with',
  ),
  fc.oneof(
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map(String.fromCharCode) }),
    fc.constantFrom('*', 'bytes=0-0', 'bytes=-1', 'bytes=9-1', '"etag"', 'W/"x"', '::1'),
  ),
  { maxKeys: 3 },
);

const who = fc.constantFrom('member', 'member', 'member', 'admin', 'anonymous', 'forged');
const forgedTokens = fc.oneof(
  fc.constantFrom('', 'x', 'a.b.c', 'Bearer', 'null'),
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map(String.fromCharCode) }),
);

type FuzzRequest = InjectOptions & { label: string; url: string };

function requestFor(op: Operation): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const isMedia = op.path.startsWith('/media/');
  return fc
    .record({
      path: fc.tuple(...pathParams.map(() => pathValue())),
      media: isMedia
        ? fc.oneof(
            fc.constantFrom(...(mediaUrls.length ? mediaUrls : ['/media/x'])),
            fc
              .tuple(fc.constantFrom(...(mediaUrls.length ? mediaUrls : ['/media/x'])), anyString)
              .map(([u, s]) => u.slice(0, u.length >> 1) + encodeSegment(s)),
            anyString.map((s) => `/media/${encodeSegment(s)}`),
          )
        : fc.constant(''),
      query: fc.tuple(
        fc.record(
          Object.fromEntries(queryParams.map((p) => [p.name, fromSchema(p.schema)])) as Record<
            string,
            fc.Arbitrary<Json>
          >,
          { requiredKeys: [] },
        ),
        fc.dictionary(anyString, anyString, { maxKeys: 2 }),
        fc.constantFrom('', '', '', '&%zz', '&a[b]=1&a[b]=2', '&limit=1&limit=2', '&&&=', '&%00'),
      ),
      body: op.path === '/api/upload/autoupload' ? fc.constant(undefined) : bodyFor(op),
      contentType: fc.option(contentTypes, { freq: 3 }),
      headers: extraHeaders,
      who,
      forged: forgedTokens,
    })
    .map((r) => {
      let url = isMedia ? r.media : op.path;
      pathParams.forEach((p, i) => {
        url = url.replace(`{${p.name}}`, encodeSegment(r.path[i] ?? ''));
      });
      const [known, extra, raw] = r.query;
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...extra, ...known })) {
        search.append(k, typeof v === 'string' ? v : JSON.stringify(v));
      }
      const qs = search.toString() + raw;
      if (qs) url += (url.includes('?') ? '&' : '?') + qs.replace(/^&/, '');
      const headers: Record<string, string> = { ...r.headers };
      if (r.body !== undefined) headers['content-type'] = 'application/json';
      if (r.contentType !== null) headers['content-type'] = r.contentType;
      if (r.who === 'forged') headers.authorization = `Bearer ${r.forged}`;
      else if (r.who === 'member' || r.who === 'admin') {
        headers.authorization = `Bearer ${sessions[r.who]}`;
      }
      return {
        label: r.who,
        method: op.method as InjectOptions['method'],
        url,
        headers,
        payload: r.body,
        remoteAddress: FUZZ_ADDRESS,
      };
    });
}

const STACK_TRACE = [
  /\bat .*\(?(?:\/|file:|node:)[^\s)]*:\d+:\d+/,
  /node:internal/,
  /Error:[^\n]*\n\s+at /,
  /\/(?:apps|node_modules|src)\/[^\s"]*\.[cm]?[jt]s\b/,
];

// Some operations end or change a session (sign-out, password change, deactivating a user).
// After one, the member's and the admin's sessions are checked and renewed, with a new account
// when the old one can no longer sign in, so later requests still reach the routes as intended.
async function keepSessionsAlive(): Promise<void> {
  for (const role of ['member', 'admin'] as const) {
    const me = await api(ctx, { method: 'GET', url: '/api/auth/me', token: sessions[role] });
    if (me.statusCode === 200) continue;
    const user = role === 'member' ? memberUser : adminUser;
    try {
      sessions[role] = await login(ctx, user);
    } catch {
      const fresh = await signedInUser(ctx, { isAdmin: role === 'admin' });
      if (role === 'member') memberUser = fresh;
      else adminUser = fresh;
      ids.users.push(fresh.id);
      sessions[role] = fresh.token;
    }
  }
}

function describeResponse(req: FuzzRequest, res: LightMyRequestResponse) {
  const payload = typeof req.payload === 'string' ? req.payload.slice(0, 300) : req.payload;
  return `${req.label} ${req.method} ${req.url.slice(0, 300)} headers=${JSON.stringify(
    req.headers,
  ).slice(0, 300)} body=${JSON.stringify(payload)} -> ${res.statusCode} ${res.body.slice(0, 500)}`;
}

describe('API fuzz from the OpenAPI document', () => {
  it(
    `answers ${RUNS} generated requests without a 5xx or a stack trace`,
    async () => {
      console.log(`API fuzz: seed ${SEED} (FUZZ_SEED), ${RUNS} requests (FUZZ_RUNS)`);
      expect(operations.length).toBeGreaterThanOrEqual(30);
      expect(mediaUrls.length).toBeGreaterThan(0);
      const perOperation = Math.max(1, Math.ceil(RUNS / operations.length));
      const started = Date.now();
      let sent = 0;
      const statuses = new Map<number, number>();
      for (const [index, op] of operations.entries()) {
        await fc.assert(
          fc.asyncProperty(requestFor(op), async (req) => {
            const res = await ctx.app.inject(req);
            sent += 1;
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            if (op.path.startsWith('/api/auth/') || op.path.startsWith('/api/user/')) {
              await keepSessionsAlive();
            }
            const found = STACK_TRACE.find((re) => re.test(res.body));
            if (res.statusCode >= 500 || found) {
              throw new Error(
                `${found ? `stack trace (${found})` : '5xx'}: ${describeResponse(req, res)}`,
              );
            }
          }),
          { numRuns: perOperation, seed: SEED + index, endOnFailure: true },
        );
      }
      const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
      console.log(
        `API fuzz: ${operations.length} operations, ${sent} requests, ${fivexx} 5xx, ` +
          `${Date.now() - started} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
      expect(sent).toBeGreaterThanOrEqual(RUNS);
      expect(fivexx).toBe(0);
    },
    Math.max(120_000, RUNS * 100),
  );
});

describe('the fuzz checks themselves', () => {
  it('see a stack trace in a body, and nothing in a plain error answer', () => {
    const stack = new Error('boom').stack ?? '';
    expect(STACK_TRACE.some((re) => re.test(JSON.stringify({ message: stack })))).toBe(true);
    expect(STACK_TRACE.some((re) => re.test(stack))).toBe(true);
    const plain = JSON.stringify({ error: 'not_found', message: 'No project 9 here.' });
    expect(STACK_TRACE.some((re) => re.test(plain))).toBe(false);
  });
});
