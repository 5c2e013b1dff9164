// Test support for admin-api: the app in-process on its own schema, signed-in operators, ready campaigns.
import type { Server } from "node:http";
import { loadBadWords } from "@pointwise/config";
import { createLogger } from "@pointwise/logger";
import { closeServer, listen } from "@pointwise/runtime";
import { backendPid, createTestBus, createTestDatabase, testServiceEnv, uniqueName, waitUntil, waitUntilBlockedBy } from "@pointwise/testkit";
import type { Express } from "express";
import { createAdminApp } from "../src/app";
import type { Deps } from "../src/deps";
import { loadEnv } from "../src/env";
import { lazyIngest } from "../src/ingest";
import { createOperator, ensureFirstOperator } from "../src/operators";

/** A parsed JSON answer, read freely by the tests. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape each endpoint answers.
export type Json = any;

/** A response as the tests look at it. */
export interface Reply {
  status: number;
  body: Json;
  headers: Headers;
}

/** A signed-in operator: every call carries its session token. */
export interface Operator {
  email: string;
  projectId: string;
  token: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
}

/** admin-api in-process on a free port, against its own migrated schema. */
export interface Harness {
  url: string;
  app: Express;
  deps: Deps;
  /** An unauthenticated call. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Creates a project with one operator and signs it in. */
  newProject(name?: string): Promise<Operator>;
  /** Adds an operator to an existing project and signs it in. */
  addOperator(projectId: string): Promise<Operator>;
  close(): Promise<void>;
}

/** The password of every operator the harness makes. */
export const OPERATOR_PASSWORD = "a-long-enough-password";

async function request(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body === undefined || typeof body === "string" ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Starts admin-api for one test file. */
export async function startHarness(overrides: Record<string, string> = {}): Promise<Harness> {
  const db = await createTestDatabase(uniqueName("admin"));
  const namespace = db.schema;
  const env = loadEnv({
    ...testServiceEnv(db.schema, { namespace }),
    ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789",
    INGEST_PUBLIC_URL: "http://ingest.pointwise.test",
    LOG_LEVEL: "silent",
    // Every operator of a test file signs in from 127.0.0.1: the address limit is tested where a test sets it.
    ADMIN_SIGN_IN_ATTEMPTS_PER_IP: "100000",
    ...overrides,
  });
  const logger = createLogger({ service: "admin-api", level: "silent" });
  const ingest = lazyIngest({ url: env.NATS_URL, namespace, db, logger });
  let usedBus = false;
  const deps: Deps = {
    env,
    logger,
    db,
    badWords: loadBadWords(env.BAD_WORDS_FILE),
    ingest: {
      get: () => {
        usedBus = true;
        return ingest.get();
      },
      announce: (change) => {
        if (change !== null) usedBus = true;
        ingest.announce(change);
      },
      close: () => ingest.close(),
    },
  };
  const app = createAdminApp(deps);
  const server: Server = await listen(app, 0, "127.0.0.1");
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  async function signIn(email: string, projectId: string): Promise<Operator> {
    const login = await request(url, "POST", "/api/auth/login", { email, password: OPERATOR_PASSWORD });
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
    const token = login.body.token as string;
    return { email, projectId, token, call: (m, p, b, h = {}) => request(url, m, p, b, { authorization: `Bearer ${token}`, ...h }) };
  }

  return {
    url,
    app,
    deps,
    call: (m, p, b, h) => request(url, m, p, b, h),
    async newProject(name = "Project") {
      const email = `${uniqueName("op")}@pointwise.test`;
      const { projectId } = await ensureFirstOperator(db, email, OPERATOR_PASSWORD, name);
      return signIn(email, projectId);
    },
    async addOperator(projectId) {
      const email = `${uniqueName("op")}@pointwise.test`;
      await createOperator(db, projectId, email, OPERATOR_PASSWORD);
      return signIn(email, projectId);
    },
    async close() {
      await closeServer(server);
      await ingest.close();
      if (usedBus) await (await createTestBus(namespace)).drop();
      await db.drop();
    },
  };
}

/** A campaign with one currency pair and an event type, ready for rules and events. */
export async function setUpCampaign(op: Operator, currencies: Record<string, string> = { xp: "Experience", gems: "Gems" }) {
  const campaign = await op.call("POST", "/api/campaigns", { name: "Season", currencies, primary_currency: Object.keys(currencies)[0] });
  if (campaign.status !== 201) throw new Error(JSON.stringify(campaign.body));
  const type = await op.call("POST", `/api/campaigns/${campaign.body.id}/event-types`, { name: "trade_volume" });
  if (type.status !== 201) throw new Error(JSON.stringify(type.body));
  return { campaignId: campaign.body.id as string, regEventId: type.body.reg_event_id as string };
}

/** A rule document paying `perUnit` xp per unit of amount of one event type. */
export function perUnitRules(regEventId: string, perUnit: string, extra: Record<string, unknown> = {}) {
  return {
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience", decimals: 2 } },
    rules: [{ id: "volume", regEventId, currency: "xp", base: { kind: "perUnit", points: perUnit } }],
    ...extra,
  };
}

/**
 * Sends `request` while another transaction holds an uncommitted `insert` of the same key: the request's own check
 * sees nothing, its insert waits on that row, and the row commits under it, as when two requests race.
 */
export async function raceAgainstInsert(h: Harness, insert: string, values: unknown[], request: () => Promise<Reply>): Promise<Reply> {
  const { pending } = await h.deps.db.transaction(async (tx) => {
    const holder = await backendPid(tx);
    await tx.query(insert, values);
    const pending = request();
    // Held until the request's insert waits on this transaction's row.
    await waitUntilBlockedBy(h.deps.db, holder, "the request's insert to wait on the held row");
    return { pending };
  });
  return pending;
}

/** Waits until every recompute job of the campaign is done (the worker's switch committed); a failed one fails the test. */
export async function recomputesSettled(op: Operator, campaignId: string): Promise<void> {
  // waitUntil takes a check that throws for "not yet": a failed job is kept here and thrown once the wait ends.
  let failed: Json;
  await waitUntil(
    async () => {
      const jobs: Json[] = (await op.call("GET", `/api/campaigns/${campaignId}/recompute-jobs`)).body.recompute_jobs;
      failed = jobs.find((j) => j.status === "failed");
      return failed !== undefined || jobs.every((j) => j.status === "done");
    },
    60_000,
    "the campaign's recompute jobs to finish",
  );
  if (failed !== undefined) throw new Error(`recompute job ${failed.id} failed: ${failed.error}`);
}
