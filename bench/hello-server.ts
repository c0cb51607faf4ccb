/**
 * The baseline of the HTTP rows: a bare Fastify hello with a response schema (the same fastify
 * the app uses, no logger, no plugins), started as its own process like the app. Prints
 * `listening <port>` once it accepts connections.
 *
 *   node --import tsx bench/hello-server.ts      (PORT=0 picks a free port)
 */
import Fastify from 'fastify';

const app = Fastify();
app.get(
  '/hello',
  {
    schema: {
      response: {
        200: {
          type: 'object',
          properties: { hello: { type: 'string' } },
          required: ['hello'],
        },
      },
    },
  },
  async () => ({ hello: 'world' }),
);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
