// A throwaway local HTTP server for indexer tests that stand in for the price and ingest APIs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A local HTTP server for a test: its base URL and a way to stop it. */
export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Starts an HTTP server on a free port of 127.0.0.1 (tests only). */
export async function startTestServer(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    handler(req, res, Buffer.concat(chunks).toString("utf8"));
  });
  return listenTestServer(server);
}

/** Starts `server` listening on a free port of 127.0.0.1; closing it also ends its open connections (tests only). */
export async function listenTestServer(server: Server): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Lists a test file pushes its servers and clients into; after the file's tests, each client is closed with
 * `closeClient`, then each server.
 */
export function closedAfterAll<C>(closeClient: (client: C) => void): { servers: TestServer[]; clients: C[] } {
  const servers: TestServer[] = [];
  const clients: C[] = [];
  afterAll(async () => {
    for (const c of clients) closeClient(c);
    for (const s of servers) await s.close();
  });
  return { servers, clients };
}

/** Writes a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}
