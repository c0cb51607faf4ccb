import Fastify from 'fastify';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { registerErrorHandler } from './error-handler.js';

/** A bare Fastify app with the error handler and one route that throws `err`. */
async function answerTo(err: Error) {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get('/boom', async () => {
    throw err;
  });
  try {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    return { status: res.statusCode, body: res.json<{ code: string; message: string }>() };
  } finally {
    await app.close();
  }
}

describe('the error handler and database outages', () => {
  it('answers a lost connection with 503 database_unavailable', async () => {
    const res = await answerTo(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    expect(res).toMatchObject({ status: 503, body: { code: 'database_unavailable' } });
  });

  it("keeps a client's aborted body a 400, though its code is a socket's", async () => {
    // What Node and Fastify make of a request body the client stopped sending.
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
    const res = await answerTo(aborted);
    expect(res.status).toBe(400);
    expect(res.body.code).not.toBe('database_unavailable');
  });

  it('answers a protocol violation (a query of ours) with a 500, not as an outage', async () => {
    const violation = Object.assign(
      new pg.DatabaseError('bind message has 70000 parameters', 0, 'error'),
      {
        code: '08P01',
      },
    );
    expect(await answerTo(violation)).toMatchObject({ status: 500, body: { code: 'internal' } });
  });
});
