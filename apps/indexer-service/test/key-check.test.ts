// The key check at start against the real ingest API process: a wrong key stops the run with Invalid API Key, no block read.
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexerConfig } from "@pointwise/indexer-engine";
import {
  type AppProcess,
  createTestDatabase,
  dropNamespace,
  seedApiKey,
  seedCampaignWithKey,
  seedEventType,
  seedProject,
  spawnApp,
  testServiceEnv,
  uniqueName,
} from "@pointwise/testkit";
import { spawnIndexer } from "./support/child";
import { runInProcess, testEnv, uniqueId } from "./support/harness";
import { listen, readBody } from "./support/net";
import type { RpcProxy } from "./support/servers";
import { useScenarioChain } from "./support/suite";

// Real processes (hardhat, ingest-api) on real services.
jest.setTimeout(60_000);

const suite = useScenarioChain();
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let ingest: AppProcess;
let schema: string;
/** The campaign the sink maps to, another campaign, and keys of every kind. */
let mine: { campaignId: string; key: string; regEventId: string; retired: string; revokedKey: string };
let other: { campaignId: string; key: string };

beforeAll(async () => {
  schema = uniqueName("keychk");
  db = await createTestDatabase(schema);
  const project = await seedProject(db);
  const a = await seedCampaignWithKey(db, { id: "mine-0001", projectId: project, eventType: "swap" });
  const retired = await seedEventType(db, a.campaignId, { name: "old", retired: true });
  const revoked = await seedApiKey(db, a.campaignId, { revoked: true });
  mine = { campaignId: a.campaignId, key: a.key, regEventId: a.regEventId, retired, revokedKey: revoked.key };
  const b = await seedCampaignWithKey(db, { id: "othr-0002", projectId: project, eventType: "swap" });
  other = { campaignId: b.campaignId, key: b.key };
  ingest = await spawnApp("ingest-api", { ...testServiceEnv(schema), LOOKUP_CACHE_MS: "0" });
}, 60_000);

afterAll(async () => {
  await ingest?.stop("SIGKILL");
  await dropNamespace(schema).catch(() => undefined);
  await db?.drop();
});

/** A config whose pointwise sink maps swaps (and, given, a second activity) to event types; ranges over the whole scenario. */
function sinkConfig(events: Record<string, string>, campaignId?: string, baseUrl = ingest.url): IndexerConfig {
  return suite.csvConfig("key", {
    network: { chainId: 31337, finality: 0 },
    range: { fromBlock: suite.scenario.pairDeployBlock, toBlock: suite.scenario.endBlock },
    adapterConfig: { adapterId: "amm-v2", params: { poolAddress: suite.scenario.pair, trackSwaps: true, trackLP: true } },
    sinkConfig: {
      sinks: [
        {
          sinkType: "pointwise",
          baseUrl,
          ...(campaignId === undefined ? {} : { campaignId }),
          events: Object.fromEntries(Object.entries(events).map(([activity, regEventId]) => [activity, { regEventId, amount: "count" }])),
        },
      ],
    },
  }).config;
}

/**
 * A gateway in front of the ingest API, as a load balancer would be: its first `failFirst` requests get a 502 page of
 * its own, later ones are forwarded. Records each request's method and path; closed after the file.
 */
async function startGateway(failFirst: number): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const gateway = await listen(async (req, res) => {
    const body = await readBody(req);
    requests.push(`${req.method} ${req.url}`);
    if (requests.length <= failFirst) {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
      return;
    }
    const headers = Object.entries(req.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name)) as [string, string][];
    const upstream = await fetch(`${ingest.url}${req.url}`, { method: req.method, headers, ...(body === "" ? {} : { body }) });
    res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/octet-stream" });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  suite.closers.push(gateway);
  return { url: gateway.url, requests };
}

/** Runs in-process with every RPC call counted by a proxy. */
async function runCounted(config: IndexerConfig, apiKey: string): Promise<{ run: Promise<unknown>; rpc: RpcProxy }> {
  const rpc = await suite.proxy();
  return { run: runInProcess(config, testEnv({ RPC_URL: rpc.url, POINTWISE_API_KEY: apiKey })), rpc };
}

describe("the key check at start, against the real ingest API", () => {
  const refused: [string, () => { config: IndexerConfig; key: string }, Record<string, unknown>][] = [
    [
      "a key of another campaign",
      () => ({ config: sinkConfig({ swap: mine.regEventId }), key: other.key }),
      { code: "wrong-campaign", campaign_id: "othr-0002" },
    ],
    ["a revoked key", () => ({ config: sinkConfig({ swap: mine.regEventId }), key: mine.revokedKey }), { code: "invalid-api-key" }],
    ["an unknown key", () => ({ config: sinkConfig({ swap: mine.regEventId }), key: `pw_${"b".repeat(40)}` }), { code: "invalid-api-key" }],
    ["a malformed key", () => ({ config: sinkConfig({ swap: mine.regEventId }), key: "not-a-key" }), { code: "invalid-api-key" }],
    ["no key in the header (blank)", () => ({ config: sinkConfig({ swap: mine.regEventId }), key: " " }), { code: "missing-api-key" }],
    [
      "the right key for a retired event type",
      () => ({ config: sinkConfig({ swap: mine.regEventId, custom: mine.retired }), key: mine.key }),
      { code: "wrong-campaign", campaign_id: "mine-0001" },
    ],
    [
      "the right key for another campaignId",
      () => ({ config: sinkConfig({ swap: mine.regEventId }, "othr-0002"), key: mine.key }),
      { code: "wrong-campaign", campaign_id: "mine-0001" },
    ],
  ];

  it.each(refused)("stops with Invalid API Key for %s, having sent no RPC request", async (_label, make, details) => {
    const { config, key } = make();
    const { run, rpc } = await runCounted(config, key);
    await expect(run).rejects.toMatchObject({ message: "Invalid API Key", code: "invalid-api-key", details });
    expect(rpc.calls).toEqual([]);
  });

  it("names the missing event type and the key's campaign in the reason", async () => {
    const { run } = await runCounted(sinkConfig({ swap: mine.regEventId, custom: mine.retired }), mine.key);
    await expect(run).rejects.toMatchObject({
      details: {
        reason: `campaign mine-0001 of this key has no active event type for events.custom.regEventId ${mine.retired}; use the key of the campaign that registered them`,
      },
    });
  });

  it("lets the campaign's own key through (with or without campaignId) and then reads the chain", async () => {
    for (const campaignId of [undefined, "mine-0001"]) {
      const config = sinkConfig({ swap: mine.regEventId }, campaignId);
      const rpc = await suite.proxy();
      const { logs } = await runInProcess(config, testEnv({ RPC_URL: rpc.url, POINTWISE_API_KEY: mine.key }));
      const checked = logs.lines.find((l) => l.msg === "Pointwise API key checked");
      expect(checked).toMatchObject({ campaign_id: "mine-0001", backfill: false, event_types: 1 });
      // The check comes before the engine's first call to the chain.
      expect(logs.messages().indexOf("Pointwise API key checked")).toBeLessThan(logs.messages().indexOf("Connected to RPC"));
      expect(rpc.calls.length).toBeGreaterThan(0);
    }
  });

  it("retries a gateway's 502 pages in front of the ingest API, then checks the key and reads the chain", async () => {
    const gateway = await startGateway(2);
    const rpc = await suite.proxy();
    const { logs } = await runInProcess(
      sinkConfig({ swap: mine.regEventId }, undefined, gateway.url),
      testEnv({ RPC_URL: rpc.url, POINTWISE_API_KEY: mine.key }),
    );
    expect(logs.lines.filter((l) => l.msg === "Pointwise API key check not answered yet, retrying").map((l) => [l.attempt, l.failure])).toEqual([
      [1, "HTTP 502, not an answer of the ingest API"],
      [2, "HTTP 502, not an answer of the ingest API"],
    ]);
    expect(logs.lines.find((l) => l.msg === "Pointwise API key checked")).toMatchObject({ campaign_id: "mine-0001" });
    expect(gateway.requests.slice(0, 3)).toEqual(Array(3).fill("GET /api/rest/api-key"));
    expect(rpc.calls.length).toBeGreaterThan(0);
  });

  it("exits the process non-zero with the Invalid API Key log line and no block read", async () => {
    const config = sinkConfig({ swap: mine.regEventId });
    const file = join(tmpdir(), `${uniqueId("keychild")}.json`);
    suite.files.push(file);
    await writeFile(file, JSON.stringify(config));
    const rpc = await suite.proxy();
    const child = spawnIndexer(file, { POINTWISE_API_KEY: other.key, RPC_URL: rpc.url, PRICE_API_KEY: "price-test-key", STATE_KEY_PREFIX: "pwtest" });
    expect(await child.exited).toBe(1);
    expect(child.lines.find((l) => l.msg === "Invalid API Key")).toMatchObject({
      code: "invalid-api-key",
      detail_code: "wrong-campaign",
      campaign_id: "othr-0002",
    });
    expect(child.lines.map((l) => l.msg)).not.toContain("Connected to RPC");
    expect(child.lines.some((l) => String(l.msg).startsWith("Processing block"))).toBe(false);
    expect(rpc.calls).toEqual([]);
  });
});
