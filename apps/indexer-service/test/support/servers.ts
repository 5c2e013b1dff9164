// Test support for the indexer: stand-in price and ingest APIs, and a JSON-RPC proxy imposing limits.
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { type LocalServer, listen, readBody, sendJson } from "./net";

const GRID_MS = 900_000;

/** The stand-in market price of `test-eth` at a 15-minute grid point: 2000 + 1.25 x (grid index mod 97), exact in binary. */
export function testEthPriceAtGrid(gridMs: number): number {
  return 2000 + ((gridMs / GRID_MS) % 97) * 1.25;
}

/** The last grid point at or before `ts`. */
export function gridFloor(ts: number): number {
  return Math.floor(ts / GRID_MS) * GRID_MS;
}

/** A stand-in for a CoinGecko-compatible price API serving `/coins/{id}/market_chart/range`. */
export interface PriceServer extends LocalServer {
  requests: string[];
}

/**
 * Starts the stand-in price API. It checks the demo key header, knows only `test-eth`, has no samples before
 * `availableFrom`, and answers the first `failFirst` requests with 429 (Retry-After 0) to exercise retries.
 */
export async function startPriceServer(options: { apiKey: string; availableFrom?: number; failFirst?: number }): Promise<PriceServer> {
  const requests: string[] = [];
  let failures = options.failFirst ?? 0;
  const server = await listen((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    requests.push(url.pathname + url.search);
    if (req.headers["x-cg-demo-api-key"] !== options.apiKey) return sendJson(res, 401, { error: "invalid key" });
    if (failures > 0) {
      failures--;
      return sendJson(res, 429, { error: "rate limited" }, { "retry-after": "0" });
    }
    const match = /^\/coins\/([^/]+)\/market_chart\/range$/.exec(url.pathname);
    if (match === null || match[1] !== "test-eth") return sendJson(res, 404, { error: "coin not found" });
    const from = Number(url.searchParams.get("from")) * 1000;
    const to = Number(url.searchParams.get("to")) * 1000;
    const prices: [number, number][] = [];
    for (let t = Math.ceil(from / GRID_MS) * GRID_MS; t <= to; t += GRID_MS) if (t >= (options.availableFrom ?? 0)) prices.push([t, testEthPriceAtGrid(t)]);
    sendJson(res, 200, { prices, market_caps: [], total_volumes: [] });
  });
  return { ...server, requests };
}

/** One earn event as the stand-in ingest API received it. */
export interface ReceivedEvent {
  account_id: string;
  identity_type: string;
  amount: string;
  reg_event_id: string;
  occurred_at?: string;
  idempotency_key?: string;
}

/** A stand-in for the Pointwise ingest API's earn-events and api-key endpoints, implementing their contract. */
export interface IngestServer extends LocalServer {
  /** Events recorded (each once, whatever the retries and however often its idempotency_key came). */
  recorded: ReceivedEvent[];
  /** Every earn-events request: its Idempotency-Key and size. */
  calls: { key: string | undefined; size: number; authorization: string | undefined }[];
  /** How many times the key check (`GET /api/rest/api-key`) was asked. */
  keyChecks: number;
}

/** The event types the stand-in's campaign has unless a test says otherwise: every reg_event_id the tests map to. */
export const STAND_IN_EVENT_TYPES = [
  "11111111-1111-4111-8111-111111111111",
  "22222222-2222-4222-8222-222222222222",
  "33333333-3333-4333-8333-333333333333",
  "44444444-4444-4444-8444-444444444444",
];

/** Options of the stand-in ingest API. */
export interface IngestOptions {
  apiKey: string;
  /** The key's campaign and its active event types (STAND_IN_EVENT_TYPES by default). */
  campaignId?: string;
  eventTypes?: string[];
  /** Whole-request failure to answer for the n-th call (0-based), e.g. rate-limited. */
  failCall?: (n: number) => string | undefined;
  /** Per-item failure code for an event, e.g. validation-failed. */
  rejectItem?: (event: ReceivedEvent) => string | undefined;
}

/**
 * Starts the stand-in ingest API: always HTTP 200; `{data:null, errors}` for whole-request failures; per-item
 * results otherwise. A repeated Idempotency-Key gets the first response and records nothing new, and an event whose
 * idempotency_key was recorded before is answered with its first event id and not recorded again.
 */
export async function startIngestServer(options: IngestOptions): Promise<IngestServer> {
  const recorded: ReceivedEvent[] = [];
  const calls: IngestServer["calls"] = [];
  const responses = new Map<string, unknown>();
  const eventIds = new Map<string, string>();
  const fail = (res: Parameters<typeof sendJson>[0], code: string, message: string) =>
    sendJson(res, 200, { data: null, errors: [{ message, extensions: { code } }] });
  const state = { keyChecks: 0 };
  const server = await listen(async (req, res) => {
    const body = await readBody(req);
    const key = req.headers["idempotency-key"] as string | undefined;
    const authorization = req.headers.authorization;
    if (req.method === "GET" && req.url === "/api/rest/api-key") {
      state.keyChecks++;
      if (authorization === undefined) return fail(res, "missing-api-key", "missing API key");
      if (authorization !== `Bearer ${options.apiKey}`) return fail(res, "invalid-api-key", "invalid API key");
      return sendJson(res, 200, {
        data: { campaign_id: options.campaignId ?? "test-0001", backfill: true, event_types: options.eventTypes ?? STAND_IN_EVENT_TYPES },
      });
    }
    if (req.method !== "POST" || req.url !== "/api/rest/earn-events") return sendJson(res, 404, { error: "not found" });
    const n = calls.length;
    const events = (JSON.parse(body) as { events: ReceivedEvent[] }).events;
    calls.push({ key, size: events.length, authorization });
    if (authorization === undefined) return fail(res, "missing-api-key", "missing API key");
    if (authorization !== `Bearer ${options.apiKey}`) return fail(res, "invalid-api-key", "invalid API key");
    if (key !== undefined && responses.has(key)) return sendJson(res, 200, responses.get(key));
    const failure = options.failCall?.(n);
    if (failure !== undefined) return fail(res, failure, failure);
    const results = events.map((event) => {
      const code = options.rejectItem?.(event);
      if (code !== undefined) return { ok: false, errors: [{ message: `rejected: ${code}`, extensions: { code } }] };
      const seen = event.idempotency_key === undefined ? undefined : eventIds.get(event.idempotency_key);
      if (seen !== undefined) return { ok: true, event_id: seen };
      const id = randomUUID();
      if (event.idempotency_key !== undefined) eventIds.set(event.idempotency_key, id);
      recorded.push(event);
      return { ok: true, event_id: id };
    });
    const response = { data: { results } };
    if (key !== undefined) responses.set(key, response);
    sendJson(res, 200, response);
  });
  return {
    ...server,
    recorded,
    calls,
    get keyChecks() {
      return state.keyChecks;
    },
  };
}

/** Options of the JSON-RPC proxy: limits some providers impose, or a broken endpoint. */
export interface RpcProxyOptions {
  target: string;
  /** Refuse eth_getLogs spanning more blocks than this (like hosted providers do). */
  maxLogRange?: number;
  /** Refuse state queries at a past block (like a non-archive node). */
  noHistoricalState?: boolean;
  /** Answer every request with this HTTP status (401: a rejected key). */
  status?: number;
  /** Delay every answer by this much (a slow provider). */
  delayMs?: number;
  /** Forward bodies untouched, neither counting calls nor applying the rules above (a hosted provider's latency, cheaply). */
  passThrough?: boolean;
}

const forwarding = new Agent({ keepAlive: true, maxSockets: 16 });

/** A JSON-RPC proxy in front of the local chain, counting requests by method. */
export interface RpcProxy extends LocalServer {
  counts: Map<string, number>;
  /** Every JSON-RPC call it received, in order (a batch counts as its calls). */
  calls: { method: string; params: unknown[] }[];
}

/** Starts a proxy that forwards to the real node unless a rule refuses the request. */
export async function startRpcProxy(options: RpcProxyOptions): Promise<RpcProxy> {
  const counts = new Map<string, number>();
  const calls: RpcProxy["calls"] = [];
  const target = new URL(options.target);
  const server = await listen(async (req, res) => {
    const text = await readBody(req);
    if (options.delayMs !== undefined) await new Promise((r) => setTimeout(r, options.delayMs));
    if (options.passThrough === true) {
      // The body goes to the node as it came and the answer streams back, so the proxy adds its delay and little else.
      const out = request(target, { method: "POST", agent: forwarding, headers: { "content-type": "application/json" } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, { "content-type": "application/json" });
        answer.pipe(res);
      });
      out.on("error", () => res.destroy());
      return out.end(text);
    }
    if (options.status !== undefined) return sendJson(res, options.status, { error: "unauthorized" });
    const payload = JSON.parse(text) as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[];
    const one = async (call: { id: number; method: string; params: unknown[] }) => {
      counts.set(call.method, (counts.get(call.method) ?? 0) + 1);
      calls.push({ method: call.method, params: call.params });
      if (call.method === "eth_getLogs" && options.maxLogRange !== undefined) {
        const filter = call.params[0] as { fromBlock: string; toBlock: string };
        if (Number(filter.toBlock) - Number(filter.fromBlock) + 1 > options.maxLogRange) {
          return { jsonrpc: "2.0", id: call.id, error: { code: -32005, message: `query exceeds max block range ${options.maxLogRange}` } };
        }
      }
      if (options.noHistoricalState === true && (call.method === "eth_getCode" || call.method === "eth_call")) {
        const tag = call.params[1];
        if (tag !== "latest" && tag !== undefined)
          return { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "missing trie node (historical state not available)" } };
      }
      const upstream = await fetch(options.target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(call) });
      return upstream.json();
    };
    const answer = Array.isArray(payload) ? await Promise.all(payload.map(one)) : await one(payload);
    sendJson(res, 200, answer);
  });
  return { ...server, counts, calls };
}
