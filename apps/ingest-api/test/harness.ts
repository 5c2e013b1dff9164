// Test support for ingest-api: the app in-process against real PostgreSQL, Redis and NATS, isolated.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import type { Bus } from "@pointwise/bus";
import { createDatabase, type Database } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { closeServer, listen } from "@pointwise/runtime";
import type { RawEventMessage } from "@pointwise/schemas";
import {
  createTestBus,
  createTestCache,
  createTestDatabase,
  seedCampaignWithKey,
  seedEventType,
  seedProject,
  testServiceEnv,
  testUrls,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";
import { buildIngestApp } from "../src/app";
import type { IngestContext } from "../src/context";
import { envSchema } from "../src/env";

/** An HTTP answer: status, headers and the parsed JSON body (or the raw text when it is not JSON). */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert each field they read
  body: any;
  text: string;
}

/** A campaign seeded for a test: its id, a working key and registered event types. */
export interface Seeded {
  campaignId: string;
  key: string;
  keyId: string;
  prefix: string;
  regEventId: string;
  retiredEventId: string;
}

/** An in-process ingest-api on an ephemeral port against the real PostgreSQL, Redis and NATS, each isolated. */
export interface Harness {
  url: string;
  ctx: IngestContext;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  /** The app's own database handle (a test may close it to take PostgreSQL away from the app). */
  appDb: Database;
  bus: Bus & { drop(): Promise<void> };
  main: Seeded;
  /** A second campaign with its own key and event types. */
  other: Seeded;
  /** A key that was revoked, and one of an archived campaign. */
  revokedKey: string;
  archivedKey: string;
  /** Every log line the app wrote. */
  logs: Record<string, unknown>[];
  request(method: string, path: string, body?: string | Buffer, headers?: Record<string, string>): Promise<Answer>;
  /** POSTs JSON (as given, or serialised) with the main key unless headers say otherwise. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Every message in this harness's event stream. */
  messages(): Promise<RawEventMessage[]>;
  /** How many messages the stream holds. */
  count(): Promise<number>;
  /** Resolves once the bus answers again (after a private NATS server restarted). */
  waitForBus(): Promise<void>;
  close(): Promise<void>;
}

const PROJECT = "00000000-0000-4000-8000-0000000000aa";

async function seedCampaign(db: Harness["db"], campaignId: string, archived = false): Promise<Seeded> {
  const seeded = await seedCampaignWithKey(db, { id: campaignId, projectId: PROJECT, archived, eventType: "trade" });
  const retiredEventId = await seedEventType(db, campaignId, { name: "old", retired: true });
  return { ...seeded, retiredEventId };
}

/** Sends a raw HTTP request (node:http, so any header can be set) and reads the whole answer. */
export function rawRequest(url: string, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the test looks at `text`
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path} got no answer within 15 s`)));
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/** Starts the harness; `env` overrides ingest-api settings, `natsUrl` and `redisUrl` the services (a private NATS, a proxy). */
export async function startHarness(env: Record<string, string> = {}, options: { natsUrl?: string; redisUrl?: string } = {}): Promise<Harness> {
  const db = await createTestDatabase();
  const namespace = uniqueName("t");
  const bus = await createTestBus(namespace, options.natsUrl ?? testUrls.nats);
  const appDb = createDatabase({ url: testUrls.database, schema: db.schema, max: 5 });
  const cache = await createTestCache(undefined, options.redisUrl);
  await seedProject(db, { id: PROJECT, name: "p" });
  const main = await seedCampaign(db, "main-0001");
  const other = await seedCampaign(db, "othr-0002");
  const revoked = await seedCampaign(db, "revk-0003");
  await db.query("UPDATE api_key SET revoked_at = now() WHERE id = $1", [revoked.keyId]);
  const archived = await seedCampaign(db, "arch-0004", true);

  const logs: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split("\n")) if (line) logs.push(JSON.parse(line));
      cb();
    },
  });
  const logger = createLogger({ service: "ingest-api", level: "info", destination });
  const parsed = envSchema.parse({
    ...testServiceEnv(db.schema, { namespace, ...(options.natsUrl ? { natsUrl: options.natsUrl } : {}) }),
    RATE_LIMIT_EVENTS_PER_SECOND: "1000000",
    RATE_LIMIT_BURST: "1000000",
    ...env,
  });
  const { app, ctx } = buildIngestApp({ env: parsed, logger, db: appDb, bus, cache });
  const server = await listen(app, 0, "127.0.0.1");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const harness: Harness = {
    url,
    ctx,
    db,
    appDb,
    bus,
    main,
    other,
    revokedKey: revoked.key,
    archivedKey: archived.key,
    logs,
    request: (method, path, body, headers) => rawRequest(url, method, path, body, headers),
    post(path, body, headers = {}) {
      const text = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      return rawRequest(url, "POST", path, text, { authorization: `Bearer ${main.key}`, "content-type": "application/json", ...headers });
    },
    async count() {
      return (await bus.eventsStreamState()).messages;
    },
    async messages() {
      return (await bus.storedEvents()).map((m) => m.json<RawEventMessage>());
    },
    async waitForBus() {
      await waitUntil(async () => (await bus.ping()) && (await bus.eventsStreamState().then(() => true)), 15_000, "the bus");
    },
    async close() {
      await closeServer(server);
      await ctx.pipeline.close();
      await bus.drop();
      await cache.drop();
      await appDb.close().catch(() => undefined);
      await db.drop();
    },
  };
  return harness;
}

/** A valid single-event body for the main campaign. */
export function validBody(h: Harness, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    account_id: "0x52908400098527886e0f7030069857d2e4169ee7",
    identity_type: "EVM_ADDRESS",
    amount: "10.5",
    reg_event_id: h.main.regEventId,
    ...overrides,
  };
}
