import Fastify from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { api, createTestContext, signedInUser, type TestContext } from '../../test/helpers.js';
import { lazyRequestLogger, loggerOptions, redactUrl } from './request-log.js';

let ctx: TestContext;
let lines: Record<string, unknown>[] = [];
const destination = {
  write(line: string) {
    lines.push(JSON.parse(line) as Record<string, unknown>);
  },
};

beforeAll(async () => {
  ctx = await createTestContext({ LOG_LEVEL: 'info' }, { logDestination: destination });
});
afterAll(async () => {
  await ctx?.close();
});
beforeEach(() => {
  lines = [];
});

describe('request log', () => {
  it('writes one line per request, with status and time, and no secrets', async () => {
    const member = await signedInUser(ctx);
    lines = [];
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/auth/me?token=abc&sig=0123',
      token: member.token,
    });
    expect(res.statusCode).toBe(200);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      pid: process.pid,
      hostname: expect.any(String),
      time: expect.any(Number),
      reqId: expect.any(String),
      req: { method: 'GET', url: '/api/auth/me?token=[redacted]&sig=[redacted]', ip: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(JSON.stringify(line)).not.toContain(member.token);
  });

  it('does not log a sign-in password', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: { email: 'nobody@example.com', password: 'a secret passphrase' } },
    });
    expect(res.statusCode).toBe(401);
    expect(lines.map((l) => (l.res as { statusCode: number } | undefined)?.statusCode)).toContain(
      401,
    );
    expect(JSON.stringify(lines)).not.toContain('a secret passphrase');
  });

  it('keeps health checks out of the log at info', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(lines).toEqual([]);
  });

  it("keeps the bell's unread polls out of the log at info", async () => {
    const member = await signedInUser(ctx);
    lines = [];
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/notifications/unread',
      token: member.token,
    });
    expect(res.statusCode).toBe(200);
    const again = await api(ctx, {
      method: 'GET',
      url: '/api/notifications/unread',
      token: member.token,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(lines).toEqual([]);
  });

  it('does not log invitation tokens, in the API or the web page path', async () => {
    const secret = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
    const urls = [
      { method: 'GET' as const, url: `/api/invitation/${secret}` },
      { method: 'POST' as const, url: `/api/invitation/${secret}/accept` },
      { method: 'GET' as const, url: `/invite/${secret}` },
      { method: 'GET' as const, url: `/invite/${secret}?from=mail` },
    ];
    for (const { method, url } of urls) {
      lines = [];
      await api(ctx, {
        method,
        url,
        ...(method === 'POST' ? { payload: { password: 'not checked here' } } : {}),
      });
      expect(lines.length, url).toBeGreaterThan(0);
      expect(JSON.stringify(lines), url).not.toContain(secret);
      const logged = (lines.at(-1)?.req as { url: string }).url;
      expect(logged).toMatch(/^\/(api\/invitation|invite)\/\[redacted\]/);
    }
  });
});

describe('redactUrl', () => {
  it('hides the token segment after /api/invitation/ and /invite/, keeps the rest', () => {
    expect(redactUrl('/api/invitation/AbC-_123/accept')).toBe('/api/invitation/[redacted]/accept');
    expect(redactUrl('/api/invitation/AbC-_123')).toBe('/api/invitation/[redacted]');
    expect(redactUrl('/invite/AbC-_123?x=1&token=t')).toBe(
      '/invite/[redacted]?x=1&token=[redacted]',
    );
    expect(redactUrl('/API/Invitation/AbC')).toBe('/API/Invitation/[redacted]');
    expect(redactUrl('/api/user/invite')).toBe('/api/user/invite');
    expect(redactUrl('/api/user/7/invite')).toBe('/api/user/7/invite');
    expect(redactUrl('/media/a.jpg?sig=abc&exp=1')).toBe('/media/a.jpg?sig=[redacted]&exp=1');
  });

  it('redacts the URL an error carries when the error handler logs it', () => {
    const options = loggerOptions({ logLevel: 'info' }, { write: () => undefined }) as unknown as {
      serializers: { err: (err: Error) => Record<string, unknown> };
    };
    const cause = z.string().safeParse(1).error!;
    const err = new ResponseSerializationError('GET', '/api/invitation/AbCdEfGh123', { cause });
    const out = options.serializers.err(err);
    expect(out.url).toBe('/api/invitation/[redacted]');
    expect(out.message).toContain(err.message);
    expect(JSON.stringify(out)).not.toContain('AbCdEfGh123');
  });
});

describe('lazyRequestLogger (request.log)', () => {
  const capture = () => {
    const written: Record<string, unknown>[] = [];
    return {
      written,
      destination: { write: (line: string) => void written.push(JSON.parse(line)) },
    };
  };

  it('makes the pino child only when something logs through it, with the same bindings', () => {
    const { written, destination } = capture();
    const parent = pino(
      loggerOptions({ logLevel: 'info' }, destination) as pino.LoggerOptions,
      destination,
    );
    const child = vi.spyOn(parent, 'child');
    const log = lazyRequestLogger(parent, { reqId: 'r-1' }, {});
    expect(log.level).toBe('info');
    log.debug('below the level');
    expect(child).toHaveBeenCalledTimes(1);
    expect(written).toEqual([]);

    const quiet = lazyRequestLogger(parent, { reqId: 'r-2' }, {});
    expect(quiet.level).toBe('info');
    expect(child).toHaveBeenCalledTimes(1);

    log.warn({ user: { password: 'hunter2' } }, 'first line');
    log.error('second line');
    expect(child).toHaveBeenCalledTimes(1);
    expect(child).toHaveBeenCalledWith({ reqId: 'r-1' }, {});
    expect(written).toMatchObject([
      { level: 40, reqId: 'r-1', msg: 'first line', user: { password: '[redacted]' } },
      { level: 50, reqId: 'r-1', msg: 'second line' },
    ]);
    log.child({ step: 'two' }).info('from a grandchild');
    expect(written.at(-1)).toMatchObject({ reqId: 'r-1', step: 'two', msg: 'from a grandchild' });
  });

  it("keeps a route's own log level, read before and set after the child is made", () => {
    const { written, destination } = capture();
    const parent = pino(
      loggerOptions({ logLevel: 'info' }, destination) as pino.LoggerOptions,
      destination,
    );
    const log = lazyRequestLogger(parent, { reqId: 'r-3' }, { level: 'warn' });
    expect(log.level).toBe('warn');
    log.info('hidden at warn');
    expect(written).toEqual([]);
    log.level = 'debug';
    log.debug('shown at debug');
    expect(written).toMatchObject([{ level: 20, reqId: 'r-3', msg: 'shown at debug' }]);
  });

  it("is Fastify's request.log: a route's line carries the request id and is redacted", async () => {
    const { written, destination } = capture();
    const app = Fastify({
      logger: loggerOptions({ logLevel: 'info' }, destination),
      childLoggerFactory: lazyRequestLogger,
      genReqId: () => 'req-42',
      disableRequestLogging: true,
    });
    app.get('/note', (request) => {
      request.log.warn({ body: { login: { password: 'hunter2' } } }, 'noted');
      return { ok: true };
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/note' });
      expect(res.statusCode).toBe(200);
      expect(written).toMatchObject([
        { level: 40, reqId: 'req-42', msg: 'noted', body: { login: { password: '[redacted]' } } },
      ]);
    } finally {
      await app.close();
    }
  });
});
