import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 in front of one local port, whose connections can be cut and let through again. */
export interface TcpProxy {
  port: number;
  /** Stops accepting (new connections are refused) and drops every open one, both ways. */
  cut(): Promise<void>;
  /** Accepts again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * An outage of a local service as its clients see it (refused connections, dropped sockets) with
 * the service itself left running, so what it had acknowledged stays written.
 */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };
  const newServer = (): Server =>
    createServer((client) => {
      const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
      track(client);
      track(upstream);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const stop = (server: Server) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    });
  let server = newServer();
  const port = await listen(server, 0);
  let isCut = false;
  return {
    port,
    async cut() {
      if (isCut) return;
      isCut = true;
      await stop(server);
    },
    async restore() {
      if (!isCut) return;
      server = newServer();
      await listen(server, port);
      isCut = false;
    },
    async close() {
      if (!isCut) await stop(server);
      isCut = true;
    },
  };
}
