// A TCP proxy the test can cut and restore, to make a server (PostgreSQL) unreachable for a while.
import net from 'node:net';

export type TcpProxy = { port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> };

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const handle = (client: net.Socket) => {
    const upstream = net.connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server = net.createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  const stop = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  };
  return {
    port,
    /** Drops every connection and refuses new ones. */
    cut: stop,
    async restore() {
      if (server.listening) return;
      server = net.createServer(handle);
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
