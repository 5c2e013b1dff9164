// One event from admin-api setup through ingest and scoring to the cached leaderboard, and clean SIGTERM exits.
import { leaderboardResponseSchema } from "@pointwise/schemas";
import { waitUntil } from "@pointwise/testkit";
import { call, OPERATOR, type Stack, signInOperator, startStack } from "./stack";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.drop();
});

describe("an event flows from the ingest API to the leaderboard", () => {
  const wallet = "0x52908400098527886E0F7030069857D2E4169EE7";
  let campaignId = "";
  let apiKey = "";
  let regEventId = "";

  it("lets an operator set up a campaign, an API key, an event type and a rule through admin-api", async () => {
    const { auth } = await signInOperator(stack.admin.url, OPERATOR);

    const campaign = await call(
      "POST",
      `${stack.admin.url}/api/campaigns`,
      { name: "Season 1", currencies: { xp: "Experience" }, primary_currency: "xp" },
      auth,
    );
    expect(campaign.status).toBe(201);
    campaignId = campaign.body.id;
    expect(campaignId).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}$/);

    const key = await call("POST", `${stack.admin.url}/api/campaigns/${campaignId}/api-keys`, {}, auth);
    expect(key.status).toBe(201);
    apiKey = key.body.key;

    const eventType = await call("POST", `${stack.admin.url}/api/campaigns/${campaignId}/event-types`, { name: "trade_volume" }, auth);
    expect(eventType.status).toBe(201);
    regEventId = eventType.body.reg_event_id;

    const document = {
      primaryCurrency: "xp",
      currencies: { xp: { name: "Experience", decimals: 2 } },
      rules: [{ id: "volume", regEventId, currency: "xp", base: { kind: "perUnit", points: "2" } }],
    };
    const rules = await call("POST", `${stack.admin.url}/api/campaigns/${campaignId}/rule-versions`, { document }, auth);
    expect(rules.status).toBe(201);
    const activated = await call("POST", `${stack.admin.url}/api/campaigns/${campaignId}/rule-versions/${rules.body.version}/activate`, {}, auth);
    expect(activated.status).toBe(202);
    expect(activated.body).toMatchObject({ version: 1, job: { reason: "rule-activation", rule_version: 1 } });
    // The scoring worker runs the activation job and switches the version in.
    await waitUntil(
      async () => (await call("GET", `${stack.admin.url}/api/campaigns/${campaignId}/rule-versions/1`, undefined, auth)).body.status === "active",
      15_000,
      "rule version 1 to become active",
    );
  });

  it("accepts an earn event only with the campaign's key, answering 200 with the event id", async () => {
    const body = { account_id: wallet, identity_type: "EVM_ADDRESS", amount: "10.25", reg_event_id: regEventId };
    const ok = await call("POST", `${stack.ingest.url}/api/rest/earn-event`, body, { authorization: `Bearer ${apiKey}` });
    expect(ok.status).toBe(200);
    expect(ok.body.data.event_id).toMatch(/^[0-9a-f-]{36}$/);

    // The same body again is a second occurrence, not a duplicate.
    const again = await call("POST", `${stack.ingest.url}/api/rest/earn-event`, body, { authorization: `Bearer ${apiKey}` });
    expect(again.body.data.event_id).not.toBe(ok.body.data.event_id);

    const wrongKey = await call("POST", `${stack.ingest.url}/api/rest/earn-event`, body, {
      authorization: "Bearer pw_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    });
    expect(wrongKey).toEqual({ status: 200, body: { data: null, errors: [{ message: "invalid API key", extensions: { code: "invalid-api-key" } }] } });

    const badType = await call("POST", `${stack.ingest.url}/api/rest/earn-event`, { ...body, identity_type: "PHONE" }, { authorization: `Bearer ${apiKey}` });
    expect(badType).toEqual({ status: 200, body: { data: null, errors: [{ message: "invalid identity_type", extensions: { code: "validation-failed" } }] } });
  });

  it("scores both occurrences (2 x 10.25 x 2 xp = 41) and shows them on the cached leaderboard without the wallet", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: checked against leaderboardResponseSchema below
    let board: any;
    await waitUntil(
      async () => {
        const res = await call("GET", `${stack.read.url}/leaderboard?campaign_id=${campaignId}`);
        board = res.body;
        return res.status === 200 && board.entries.length === 1 && board.entries[0].scores.xp.total === 41;
      },
      15_000,
      "the leaderboard to show 41 xp",
    ).catch((err) => {
      throw new Error(`${err.message}\nlast board: ${JSON.stringify(board)}\nworker log:\n${stack.worker.output()}`);
    });
    expect(leaderboardResponseSchema.parse(board)).toEqual(board);
    expect(board.campaign_id).toBe(campaignId);
    expect(board.currency_names).toEqual({ xp: "Experience" });
    expect(board.entries[0]).toMatchObject({ rank: 1, identities: {}, scores: { xp: { score: 41, referral_score: 0, total: 41 } } });
    expect(JSON.stringify(board).toLowerCase()).not.toContain(wallet.toLowerCase().slice(2));

    const cached = await fetch(`${stack.read.url}/leaderboard?campaign_id=${campaignId}`);
    expect(await cached.text()).toBe(JSON.stringify(board));
  });

  it("reports ready while its dependencies answer, and every app exits 0 on SIGTERM", async () => {
    for (const app of [stack.admin, stack.ingest, stack.worker, stack.read]) {
      const ready = await call("GET", `${app.url}/readyz`);
      expect(ready.status).toBe(200);
      expect((await call("GET", `${app.url}/healthz`)).body).toEqual({ status: "ok" });
    }
    expect(await stack.stop()).toEqual([0, 0, 0, 0]);
  });
});
