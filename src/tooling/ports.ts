// Free TCP ports on 127.0.0.1 for the processes the tests, benches and `npm run cluster` start.
import net from 'node:net';

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/** `n` distinct ports, all free a moment ago (held open together, then released). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const srv = net.createServer();
          srv.once('error', reject);
          srv.listen(0, '127.0.0.1', () => resolve(srv));
        }),
    ),
  );
  const ports = servers.map((srv) => (srv.address() as net.AddressInfo).port);
  await Promise.all(servers.map((srv) => new Promise((r) => srv.close(r))));
  return ports;
}

/**
 * `n` distinct free ports below 32768 (Temporal stores membership ports as a PostgreSQL smallint;
 * the kernel's ephemeral range starts above it), tried at random from 20000 up.
 */
export async function freeLowPorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < n) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    if (ports.includes(candidate)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(candidate, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) ports.push(candidate);
  }
  return ports;
}
