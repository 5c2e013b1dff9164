// A TCP proxy that outage tests cut and restore in front of PostgreSQL or Redis.
import net from "node:net";
import { freePort } from "./processes";

/** A TCP proxy a test can cut and restore. */
export interface TcpProxy {
  port: number;
  /** `target` with its host and port replaced by the proxy's. */
  url: string;
  /** Starts (or restarts) forwarding; a no-op while it forwards. */
  start(): Promise<void>;
  /** Stops listening and cuts every open connection, as if the service behind it were gone. */
  stop(): Promise<void>;
}

/**
 * A TCP proxy in front of a shared service (PostgreSQL, Redis), so an outage test cuts its own
 * connections and never touches the server other tests use. Not started until `start`.
 */
export async function createTcpProxy(target: string): Promise<TcpProxy> {
  const upstreamUrl = new URL(target);
  const defaultPort = upstreamUrl.protocol.startsWith("redis") ? 6379 : 5432;
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  const via = new URL(target);
  via.hostname = "127.0.0.1";
  via.port = String(port);
  return {
    port,
    url: via.toString(),
    async start() {
      if (server) return;
      server = net.createServer((client) => {
        track(client);
        const upstream = net.connect(Number(upstreamUrl.port || defaultPort), upstreamUrl.hostname);
        track(upstream);
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on("close", end);
        upstream.on("close", end);
      });
      await new Promise<void>((resolve) => server?.listen(port, "127.0.0.1", resolve));
    },
    async stop() {
      const s = server;
      if (!s) return;
      server = undefined;
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
