import type { Server } from "node:http";
import { closeServer, listen } from "@pointwise/runtime";
import { seedApiKey, seedCampaign, seedScore, seedUser, testUrls, uniqueName, waitUntil } from "@pointwise/testkit";
import { connect, type NatsConnection } from "nats";
import { createReadApp, createReadResponses } from "../src/app";
import { type Invalidations, subscribeInvalidations } from "../src/invalidation";
import { get, startReadApi, type TestReadApi } from "./support";

/** read-api listening for the scoring worker's score-change messages on a NATS namespace of its own. */
let api: TestReadApi;
let server: Server;
let url = "";
let invalidations: Invalidations;
let nc: NatsConnection;
const namespace = uniqueName("inv");
let campaign = "";
let alice = "";
let key = "";

beforeAll(async () => {
  api = await startReadApi({ CACHE_TTL_MS: "600000" });
  const responses = createReadResponses(api.deps);
  invalidations = subscribeInvalidations({ url: testUrls.nats, namespace, responses, logger: api.deps.logger });
  server = await listen(createReadApp(api.deps, responses), 0, "127.0.0.1");
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  nc = await connect({ servers: testUrls.nats });
  campaign = await seedCampaign(api.db, { currencies: { xp: "Experience" } });
  alice = await seedUser(api.db, campaign, { displayName: "Alice" });
  await seedScore(api.db, campaign, alice, "xp", { score: "10" });
  key = (await seedApiKey(api.db, campaign)).key;
});
afterAll(async () => {
  await invalidations.close();
  await nc.drain();
  await closeServer(server);
  await api.close();
});

const publish = (body: object) => nc.publish(`${namespace}.scores.${campaign}`, JSON.stringify({ v: 1, campaign_id: campaign, ...body }));
const board = () => get(`${url}/leaderboard?campaign_id=${campaign}`);
const scores = () => get(`${url}/users/${alice}/scores`, { "x-api-key": key });

describe("score-change messages from the scoring worker", () => {
  it("after a batch, drop the listed users' own scores at once but keep the leaderboard's bytes for its window", async () => {
    const boardBefore = await board();
    const scoresBefore = await scores();
    expect(scoresBefore.body.scores.xp.total).toBe(10);

    await seedScore(api.db, campaign, alice, "xp", { score: "25" });
    publish({ reason: "events", user_ids: [alice] });
    await waitUntil(async () => (await scores()).body.scores.xp.total === 25, 5000, "alice's own scores to show 25");
    expect((await board()).text).toBe(boardBefore.text);
  });

  it("after a recompute (new rules, linked identities), drop every cached response of the campaign", async () => {
    await seedScore(api.db, campaign, alice, "xp", { score: "40" });
    publish({ reason: "recompute", user_ids: null });
    await waitUntil(async () => (await board()).body.entries[0]?.scores.xp.total === 40, 5000, "the leaderboard to show 40");
    expect((await scores()).body.scores.xp.total).toBe(40);
  });

  it("ignores a message that is not a score change and keeps serving", async () => {
    const before = await board();
    nc.publish(`${namespace}.scores.${campaign}`, "not json");
    publish({ reason: "something-else" });
    await nc.flush();
    expect((await board()).text).toBe(before.text);
  });
});
