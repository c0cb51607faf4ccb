import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1 (the same after a restart). */
  port: number;
  /** An outage: every open connection is cut and new ones are refused. */
  stop: () => Promise<void>;
  /** The way back: accepts connections again, on the same port. */
  start: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A TCP relay on 127.0.0.1 to `target`, to take a real server (PostgreSQL) away from the app and
 * bring it back without touching the server itself: the app sees refused and reset connections,
 * as in a restart or a network failure.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const listen = async (port: number): Promise<Server> => {
    const server = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        // A cut connection errors on both sides; the other side is destroyed with it.
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return server;
  };
  let server: Server | null = await listen(0);
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    if (!server) return;
    const closing = server;
    server = null;
    const closed = once(closing, 'close');
    closing.close();
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    stop,
    start: async () => {
      server ??= await listen(port);
    },
    close: stop,
  };
}
