/**
 * The indexer against the real points pipeline: a local chain whose pool sees swaps over thirteen days of chain time
 * (weekends included), the indexer's pointwise sink mapping each swap (count) to an event type, and the real
 * ingest API, JetStream, scoring worker and read API as processes. The campaign pays 10 xp per swap, x2 on
 * Saturdays and Sundays, capped at 35 xp per user and UTC day. Every user's expected score is worked out here
 * from the chain's own Swap logs, transactions and block times; the indexer is killed mid-run and restarted, and
 * finally run again from scratch, and the log must hold every swap exactly once.
 */
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexerConfig } from "@pointwise/indexer-engine";
import {
  type AppProcess,
  createTestDatabase,
  dropNamespace,
  seedCampaignWithKey,
  seedProject,
  seedRuleVersion,
  spawnApp,
  testServiceEnv,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";
import { Interface } from "ethers";
import { type LocalChain, startChain } from "./support/chain";
import { spawnIndexer } from "./support/child";
import { type TradingDay, tradeOverDays } from "./support/days";
import { buildConfig, clearIndexer, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import { runScenario, type ScenarioResult } from "./support/scenario";
import { type RpcProxy, startRpcProxy } from "./support/servers";

jest.setTimeout(180_000);

const DAY_MS = 86_400_000;
const POINTS = 10;
const WEEKEND_FACTOR = 2;
const DAY_CAP = 35;
const PREFIX = "pwpipe";
// The chain starts on Monday 2024-01-01 (test/chain/hardhat.config.js); day n is that date + n days.
const DAYS: TradingDay[] = [
  { day: 1, swaps: { a: 1, b: 2 } }, // Tue
  { day: 2, swaps: { a: 2 } }, // Wed
  { day: 3, swaps: { a: 3, b: 2 } }, // Thu
  { day: 4, swaps: { a: 4 } }, // Fri: a over the cap
  { day: 5, swaps: { a: 1, c: 1 } }, // Sat
  { day: 6, swaps: { a: 2, c: 1 } }, // Sun: a over the cap with two weekend swaps
  { day: 7, swaps: { a: 3, b: 4 } }, // Mon
  { day: 8, swaps: { a: 4 } }, // Tue
  { day: 9, swaps: { b: 1 } }, // Wed
  { day: 10, swaps: { a: 2, b: 3 } }, // Thu
  { day: 11, swaps: { a: 3 } }, // Fri
  { day: 12, swaps: { a: 1, b: 2, c: 1 } }, // Sat
];
const SWAP_EVENT = new Interface([
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
]);

let chain: LocalChain;
let scenario: ScenarioResult;
let endBlock: number;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let schema: string;
let apps: AppProcess[] = [];
let ingest: AppProcess;
let read: AppProcess;
let slowRpc: RpcProxy;
let campaign: { campaignId: string; key: string; regEventId: string };
let config: IndexerConfig;
let configFile: string;
/** What the chain says happened: every swap the adapter turns into an action, with its user and block time. */
let swaps: { user: string; ts: number; block: number }[];

/** The UTC day of a time, as yyyy-mm-dd. */
const dayOf = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const isWeekend = (ts: number) => [0, 6].includes(new Date(ts).getUTCDay());

/** Each user's expected xp: per UTC day, 10 per swap (20 on a weekend day), at most 35. */
function expectedScores(): Map<string, number> {
  const perDay = new Map<string, number>();
  for (const s of swaps) {
    const key = `${s.user}|${dayOf(s.ts)}`;
    perDay.set(key, (perDay.get(key) ?? 0) + POINTS * (isWeekend(s.ts) ? WEEKEND_FACTOR : 1));
  }
  const totals = new Map<string, number>();
  for (const [key, raw] of perDay) {
    const user = key.split("|")[0] as string;
    totals.set(user, (totals.get(user) ?? 0) + Math.min(raw, DAY_CAP));
  }
  return totals;
}

/** Reads every Swap log of the pool, its transaction's sender and its block's time, straight from the node. */
async function swapsFromChain(): Promise<{ user: string; ts: number; block: number }[]> {
  const topic = SWAP_EVENT.getEvent("Swap")?.topicHash as string;
  const logs = await chain.provider.getLogs({ address: scenario.pair, topics: [topic], fromBlock: 0, toBlock: endBlock });
  const out: { user: string; ts: number; block: number }[] = [];
  for (const log of logs) {
    const [, amount0In, amount1In, amount0Out, amount1Out] = SWAP_EVENT.decodeEventLog("Swap", log.data, log.topics) as unknown as bigint[];
    // The spec's pool adapter: token0 sold when amount0In > 0; a swap with a zero from- or to-amount is skipped.
    const [from, to] = (amount0In as bigint) > 0n ? [amount0In as bigint, amount1Out as bigint] : [amount1In as bigint, amount0Out as bigint];
    if (from === 0n || to === 0n) continue;
    const tx = await chain.provider.getTransaction(log.transactionHash);
    const block = await chain.provider.getBlock(log.blockNumber);
    out.push({ user: (tx?.from ?? "").toLowerCase(), ts: (block?.timestamp ?? 0) * 1000, block: log.blockNumber });
  }
  return out;
}

async function eventCount(): Promise<number> {
  const { rows } = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM event_log WHERE campaign_id = $1", [campaign.campaignId]);
  return Number(rows[0]?.n ?? 0);
}

async function userIdOf(account: string): Promise<string | undefined> {
  const { rows } = await db.query<{ user_id: string }>(
    "SELECT user_id::text AS user_id FROM identity WHERE campaign_id = $1 AND identity_type = 'EVM_ADDRESS' AND account_id = $2",
    [campaign.campaignId, account],
  );
  return rows[0]?.user_id;
}

beforeAll(async () => {
  chain = await startChain();
  scenario = await runScenario(chain);
  endBlock = await tradeOverDays(chain, scenario, DAYS);
  swaps = await swapsFromChain();

  schema = uniqueName("pipe");
  db = await createTestDatabase(schema);
  const project = await seedProject(db);
  campaign = await seedCampaignWithKey(db, { id: "pipe-0001", projectId: project, eventType: "swap" });
  // The campaign began before the chain's first block, and its key may report that far back.
  await db.query("UPDATE campaign SET starts_at = '2023-12-31T00:00:00Z' WHERE id = $1", [campaign.campaignId]);
  await db.query("UPDATE api_key SET backfill = true WHERE campaign_id = $1", [campaign.campaignId]);
  await seedRuleVersion(db, campaign.campaignId, {
    campaignId: campaign.campaignId,
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "XP", decimals: 0 } },
    rules: [
      {
        id: "swaps",
        regEventId: campaign.regEventId,
        currency: "xp",
        base: { kind: "perUnit", points: String(POINTS) },
        multipliers: [{ kind: "recurring", factor: String(WEEKEND_FACTOR), window: { days: ["sat", "sun"] } }],
        caps: [{ period: "day", limit: String(DAY_CAP) }],
      },
    ],
  });
  const env = { ...testServiceEnv(schema), CACHE_TTL_MS: "1000", FETCH_EXPIRES_MS: "1000" };
  ingest = await spawnApp("ingest-api", env);
  const [worker, readApi] = await Promise.all([spawnApp("scoring-worker", env), spawnApp("read-api", env)]);
  read = readApi;
  apps = [ingest, worker, readApi];

  // A slow provider makes each one-block range take a while, so a kill lands mid-run.
  slowRpc = await startRpcProxy({ target: chain.url, delayMs: 10 });
  const input = {
    kind: "evm" as const,
    indexerId: uniqueId("pipeline"),
    flushMs: 3_600_000,
    stateStoreUrl: REDIS_URL,
    network: { chainId: 31337, finality: 0 },
    range: { fromBlock: scenario.pairDeployBlock, toBlock: endBlock },
    sinkConfig: {
      sinks: [
        {
          sinkType: "pointwise" as const,
          baseUrl: ingest.url,
          campaignId: campaign.campaignId,
          batchSize: 4,
          events: { swap: { regEventId: campaign.regEventId, amount: "count" as const } },
        },
      ],
    },
    adapterConfig: { adapterId: "amm-v2", params: { poolAddress: scenario.pair, trackSwaps: true } },
  };
  config = buildConfig(input);
  configFile = join(tmpdir(), `${config.indexerId}.json`);
  await writeFile(configFile, JSON.stringify(input));
}, 180_000);

afterAll(async () => {
  if (config !== undefined) await clearIndexer(config, PREFIX);
  await slowRpc?.close();
  await Promise.all(apps.map((a) => a.stop("SIGKILL")));
  await dropNamespace(schema).catch(() => undefined);
  await db?.drop();
  await chain?.stop();
});

const runEnv = () => testEnv({ RPC_URL: chain.url, POINTWISE_API_KEY: campaign.key, STATE_KEY_PREFIX: PREFIX });

describe("the indexer against the real ingest API, JetStream, scoring worker and read API", () => {
  it("spreads the swaps over more than ten days of chain time, weekends included", () => {
    const days = new Set(swaps.map((s) => dayOf(s.ts)));
    expect(days.size).toBeGreaterThanOrEqual(11);
    const span = Math.max(...swaps.map((s) => s.ts)) - Math.min(...swaps.map((s) => s.ts));
    expect(span).toBeGreaterThan(10 * DAY_MS);
    expect(swaps.filter((s) => isWeekend(s.ts)).length).toBeGreaterThanOrEqual(5);
  });

  it("logs every swap exactly once after a SIGKILL mid-run and a restart", async () => {
    const child = spawnIndexer(configFile, {
      POINTWISE_API_KEY: campaign.key,
      RPC_URL: slowRpc.url,
      PRICE_API_KEY: "price-test-key",
      STATE_KEY_PREFIX: PREFIX,
      INDEXER_MAX_BLOCK_RANGE: "1",
      INDEXER_INITIAL_BLOCK_RANGE: "1",
    });
    // Past the first sends: some events are logged, most of the range is still ahead.
    await child.waitFor("earn events sent", 2);
    child.child.kill("SIGKILL");
    await child.exited;
    const { result, logs } = await runInProcess(config, runEnv());
    expect(result.finished).toBe(true);
    expect(logs.messages()).toContain("resuming from checkpoint");
    // The kill landed mid-run: the restart still had blocks to index and events to send.
    const resumedAt = Number(logs.lines.find((l) => String(l.msg).startsWith("Processing block"))?.fromBlock);
    expect(resumedAt).toBeGreaterThan(scenario.pairDeployBlock);
    expect(resumedAt).toBeLessThan(Math.max(...swaps.map((s) => s.block)));
    expect(logs.messages()).toContain("earn events sent");

    await waitUntil(async () => (await eventCount()) >= swaps.length, 60_000, "the worker to log every swap").catch(async (err) => {
      throw new Error(`${(err as Error).message}: ${await eventCount()} of ${swaps.length}\n${apps.map((a) => a.output().slice(-3000)).join("\n")}`);
    });
    expect(await eventCount()).toBe(swaps.length);
    // Each swap is in the log once, at its block's time, under its sender's identity.
    const { rows } = await db.query<{ account_id: string; occurred_at: Date; source: string }>(
      "SELECT account_id, occurred_at, source FROM event_log WHERE campaign_id = $1",
      [campaign.campaignId],
    );
    const logged = rows.map((r) => `${r.account_id}|${r.occurred_at.getTime()}`).sort();
    expect(logged).toEqual(swaps.map((s) => `${s.user}|${s.ts}`).sort());
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(["indexer"]));
  });

  it("shows every user's score worked out from the chain, day caps and weekend multiplier by chain time", async () => {
    const expected = expectedScores();
    // The scores differ from what scoring at arrival would give: all in one day, everyone would be capped at 35.
    expect([...expected.values()].some((v) => v > DAY_CAP)).toBe(true);
    const users = new Map<string, string>();
    for (const account of expected.keys()) users.set(account, (await userIdOf(account)) as string);
    let last = "";
    await waitUntil(
      async () => {
        for (const [account, userId] of users) {
          const res = await fetch(`${read.url}/users/${userId}/scores`, { headers: { "x-api-key": campaign.key } });
          last = await res.text();
          if (res.status !== 200 || (JSON.parse(last) as { scores: { xp?: { total: number } } }).scores.xp?.total !== expected.get(account)) return false;
        }
        return true;
      },
      30_000,
      "the read API to show the expected scores",
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\nexpected ${JSON.stringify([...expected])}\nlast answer ${last}`);
    });
    for (const [account, userId] of users) {
      const body = (await (await fetch(`${read.url}/users/${userId}/scores`, { headers: { "x-api-key": campaign.key } })).json()) as {
        scores: { xp: { score: number; referral_score: number; total: number } };
      };
      const want = expected.get(account);
      expect([account, body.scores.xp]).toEqual([account, { score: want, referral_score: 0, total: want }]);
    }
    const board = (await (await fetch(`${read.url}/leaderboard?campaign_id=${campaign.campaignId}`)).json()) as {
      entries: { rank: number; user_id: string; scores: { xp: { total: number } } }[];
    };
    const byRank = [...users].map(([account, userId]) => ({ userId, total: expected.get(account) as number })).sort((x, y) => y.total - x.total);
    expect(board.entries.map((e) => [e.user_id, e.scores.xp.total])).toEqual(byRank.map((u) => [u.userId, u.total]));
  });

  it("scored each swap at its block time: x2 on weekend days, x1 on weekdays, whatever day the test runs", async () => {
    const { rows } = await db.query<{ occurred_at: Date; points: string }>(
      `SELECT e.occurred_at, l.points::text AS points
         FROM ledger_entry l JOIN event_log e ON e.id = l.event_id
        WHERE l.campaign_id = $1 AND l.kind = 'base'`,
      [campaign.campaignId],
    );
    expect(rows.length).toBe(swaps.length);
    for (const row of rows) {
      const ts = row.occurred_at.getTime();
      expect([dayOf(ts), Number(row.points)]).toEqual([dayOf(ts), POINTS * (isWeekend(ts) ? WEEKEND_FACTOR : 1)]);
    }
    expect(rows.some((r) => isWeekend(r.occurred_at.getTime()))).toBe(true);
    expect(rows.some((r) => !isWeekend(r.occurred_at.getTime()))).toBe(true);
  });

  it("logs nothing new when the whole range is indexed again from scratch under the same indexerId", async () => {
    const before = await eventCount();
    await clearIndexer(config, PREFIX);
    const { result, logs } = await runInProcess(config, runEnv());
    expect(result.finished).toBe(true);
    expect(logs.messages()).toContain("starting a new index");
    expect(logs.lines.filter((l) => l.msg === "earn events sent").reduce((n, l) => n + Number(l.events), 0)).toBe(swaps.length);
    // Every event was accepted again (its id is derived from its key), none refused.
    expect(logs.messages()).not.toContain("earn event dropped by the Pointwise API");
    // Give the worker time to log anything that would be new.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await eventCount()).toBe(before);
  });
});
