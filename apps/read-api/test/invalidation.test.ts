// read-api dropping cached responses on score-change messages, and serving while NATS is away.
import type { Server } from "node:http";
import { type Bus, createBus } from "@pointwise/bus";
import { closeServer, listen } from "@pointwise/runtime";
import type { ScoresChanged } from "@pointwise/schemas";
import { createTestBus, seedApiKey, seedCampaign, seedScore, seedUser, startNatsServer, testUrls, uniqueName, waitUntil } from "@pointwise/testkit";
import { createReadApp, createReadResponses } from "../src/app";
import { type Invalidations, subscribeInvalidations } from "../src/invalidation";
import { get, startReadApi, type TestReadApi } from "./support";

/** read-api listening for the scoring worker's score-change messages on a NATS namespace of its own. */
let api: TestReadApi;
let server: Server;
let url = "";
let invalidations: Invalidations;
let responses: ReturnType<typeof createReadResponses>;
/** The scoring worker's side. */
let bus: Bus & { drop(): Promise<void> };
/** read-api's side, connected as main.ts connects it. */
let readBus: Bus;
const namespace = uniqueName("inv");
let campaign = "";
let alice = "";
let key = "";

beforeAll(async () => {
  api = await startReadApi({ CACHE_TTL_MS: "600000" });
  responses = createReadResponses(api.deps);
  bus = await createTestBus(namespace);
  readBus = await createBus({ url: testUrls.nats, namespace, name: "read-api", firstConnect: "background" });
  invalidations = subscribeInvalidations({ bus: readBus, responses, logger: api.deps.logger });
  server = await listen(createReadApp(api.deps, responses), 0, "127.0.0.1");
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  campaign = await seedCampaign(api.db, { currencies: { xp: "Experience" } });
  alice = await seedUser(api.db, campaign, { displayName: "Alice" });
  await seedScore(api.db, campaign, alice, "xp", { score: "10" });
  key = (await seedApiKey(api.db, campaign)).key;
});
afterAll(async () => {
  await invalidations.close();
  await readBus.close();
  await bus.drop();
  await closeServer(server);
  await api.close();
});

/** A change as the scoring worker publishes it, with `body` over the fields this test does not look at. */
const publish = (body: Pick<ScoresChanged, "reason" | "user_ids">) =>
  bus.publishScoresChanged({ v: 1, campaign_id: campaign, rule_version: 1, currencies: ["xp"], last_seq: null, at: new Date().toISOString(), ...body });
/** Bytes on the campaign's score-change subject that are not a valid change. */
const publishInvalid = (data: string) => bus.publishBytes(bus.names.scoresSubject(campaign), data);
const board = () => get(`${url}/leaderboard?campaign_id=${campaign}`);
const scores = () => get(`${url}/users/${alice}/scores`, { "x-api-key": key });

describe("score-change messages from the scoring worker, admin-api and portal-api", () => {
  it("after a batch, drop the listed users' own scores at once but keep the leaderboard's bytes for its window", async () => {
    const boardBefore = await board();
    const scoresBefore = await scores();
    expect(scoresBefore.body.scores.xp.total).toBe(10);

    await seedScore(api.db, campaign, alice, "xp", { score: "25" });
    publish({ reason: "events", user_ids: [alice] });
    await waitUntil(async () => (await scores()).body.scores.xp.total === 25, 5000, "alice's own scores to show 25");
    expect((await board()).text).toBe(boardBefore.text);
  });

  it.each(["adjustments", "redemptions"] as const)(
    "after %s from admin-api or portal-api, drop the listed users' own scores at once but keep the leaderboard's bytes",
    async (reason) => {
      const boardBefore = await board();
      const before = (await scores()).body.scores.xp.total;
      await seedScore(api.db, campaign, alice, "xp", { score: String(before + 3) });
      publish({ reason, user_ids: [alice] });
      await waitUntil(async () => (await scores()).body.scores.xp.total === before + 3, 5000, `alice's own scores to show ${before + 3}`);
      expect((await board()).text).toBe(boardBefore.text);
    },
  );

  it("after an exclusion, drop the campaign's leaderboards as well as the listed users' own scores", async () => {
    await board();
    const before = (await scores()).body.scores.xp.total;
    await seedScore(api.db, campaign, alice, "xp", { score: String(before + 5) });
    publish({ reason: "exclusions", user_ids: [alice] });
    await waitUntil(async () => (await board()).body.entries[0]?.scores.xp.total === before + 5, 5000, `the leaderboard to show ${before + 5}`);
    expect((await scores()).body.scores.xp.total).toBe(before + 5);
  });

  it("after a recompute (new rules, linked identities), drop every cached response of the campaign", async () => {
    await seedScore(api.db, campaign, alice, "xp", { score: "40" });
    publish({ reason: "recompute", user_ids: null });
    await waitUntil(async () => (await board()).body.entries[0]?.scores.xp.total === 40, 5000, "the leaderboard to show 40");
    expect((await scores()).body.scores.xp.total).toBe(40);
  });

  it("ignores a message that is not a score change and keeps serving", async () => {
    const before = await board();
    await publishInvalid("not json");
    await publishInvalid(JSON.stringify({ v: 1, campaign_id: campaign, reason: "something-else" }));
    expect((await board()).text).toBe(before.text);
  });

  it("serves while NATS is away, and drops cached scores once it is back", async () => {
    const nats = await startNatsServer();
    await nats.stop();
    const lateNamespace = uniqueName("inv");
    const late = await createBus({ url: nats.url, namespace: lateNamespace, name: "read-api", firstConnect: "background" });
    const lateInvalidations = subscribeInvalidations({ bus: late, responses, logger: api.deps.logger });
    let worker: (Bus & { drop(): Promise<void> }) | undefined;
    try {
      expect((await scores()).status).toBe(200);
      await nats.start();
      worker = await createTestBus(lateNamespace, nats.url);
      const before = (await scores()).body.scores.xp.total;
      await seedScore(api.db, campaign, alice, "xp", { score: String(before + 1) });
      // Until its subscription is up a change is lost (best effort); keep announcing it until it lands.
      await waitUntil(
        async () => {
          worker?.publishScoresChanged({
            v: 1,
            campaign_id: campaign,
            reason: "events",
            rule_version: 1,
            currencies: ["xp"],
            user_ids: [alice],
            last_seq: null,
            at: new Date().toISOString(),
          });
          return (await scores()).body.scores.xp.total === before + 1;
        },
        15_000,
        "the change to reach read-api once NATS is up",
      );
    } finally {
      await lateInvalidations.close();
      await late.close();
      await worker?.drop();
      await nats.destroy();
    }
  });
});
