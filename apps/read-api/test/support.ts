// read-api in-process against its own schema and key prefix, and a GET helper for its tests.
import type { Server } from "node:http";
import path from "node:path";
import type { Cache } from "@pointwise/cache";
import { loadBadWords } from "@pointwise/config";
import type { Database } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { closeServer, listen } from "@pointwise/runtime";
import { createTestCache, createTestDatabase, testServiceEnv, uniqueName } from "@pointwise/testkit";
import { createReadApp } from "../src/app";
import type { Deps } from "../src/deps";
import { loadEnv } from "../src/env";

/** A read-api on a free port against an isolated schema and key prefix. */
export interface TestReadApi {
  url: string;
  db: Database & { drop(): Promise<void> };
  cache: Cache & { drop(): Promise<void> };
  deps: Deps;
  /** Starts another app (same schema and prefix unless replaced) that is closed with this one. */
  another(overrides?: Partial<Deps>): Promise<string>;
  close(): Promise<void>;
}

/** The default bad words that ship with the service. */
export const shippedBadWords = loadBadWords(path.join(__dirname, "..", "data", "bad-words.txt"));

/** Starts read-api in-process with `env` overrides (CACHE_TTL_MS, PORTAL_JWT_SECRET, ...). */
export async function startReadApi(env: Record<string, string> = {}): Promise<TestReadApi> {
  const db = await createTestDatabase();
  const cache = await createTestCache(uniqueName("read"));
  const parsed = loadEnv({
    ...testServiceEnv(db.schema, { namespace: "unused" }),
    AVATAR_PROXY_URL: "https://img.test",
    GENERATED_AVATAR_URL: "https://gen.test/avatar.svg",
    ...env,
  });
  const deps: Deps = { env: parsed, logger: createLogger({ service: "read-api-test", level: "silent" }), db, cache, badWords: shippedBadWords };
  const servers: Server[] = [];
  const start = async (d: Deps) => {
    const server = await listen(createReadApp(d), 0, "127.0.0.1");
    servers.push(server);
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("no address");
    return `http://127.0.0.1:${address.port}`;
  };
  return {
    url: await start(deps),
    db,
    cache,
    deps,
    another: (overrides = {}) => start({ ...deps, ...overrides }),
    async close() {
      for (const s of servers) await closeServer(s);
      await cache.drop();
      await db.drop();
    },
  };
}

/** GET with headers; the status, the raw body and the parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field after checking them against the schemas
export async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; body: any; headers: Headers }> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null, headers: res.headers };
}
