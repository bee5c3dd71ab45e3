import { createServer, type Server, type Socket, connect } from 'node:net';

export interface TcpRelay {
  readonly port: number;
  /** Drops every relayed connection and refuses new ones: to the client the database is gone. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay between the server and a PostgreSQL the suite cannot stop (DATABASE_URL): the
 * outage for the 503 transactions is made here instead, by cutting the line.
 */
export async function startTcpRelay(targetHost: string, targetPort: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let listening: Server | undefined;
  let port = 0;

  const open = async () => {
    const server = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address && typeof address === 'object') port = address.port;
    listening = server;
  };

  const shut = async () => {
    const server = listening;
    listening = undefined;
    for (const socket of sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  await open();
  return {
    get port() {
      return port;
    },
    cut: shut,
    async restore() {
      if (!listening) await open();
    },
    close: shut,
  };
}
