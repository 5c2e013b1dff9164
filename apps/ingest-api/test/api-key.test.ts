// GET /api/rest/api-key on real services: a key's campaign, backfill flag and event types, refusals as earn-event gives them.
import { loadOpenApi, seedEventType } from "@pointwise/testkit";
import { type Harness, startHarness, validBody } from "./harness";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const PATH = "/api/rest/api-key";
const documented = loadOpenApi("ingest");

let h: Harness;
beforeAll(async () => {
  // No lookup cache, so each call sees the rows as they are now.
  h = await startHarness({ LOOKUP_CACHE_MS: "0" });
});
afterAll(async () => {
  await h?.close();
});

const get = (headers: Record<string, string> = {}) => h.request("GET", PATH, undefined, headers);
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("GET /api/rest/api-key", () => {
  it("answers the key's campaign, backfill false and the campaign's active event types, without the retired one", async () => {
    const answer = await get(bearer(h.main.key));
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.body).toEqual({ data: { campaign_id: "main-0001", backfill: false, event_types: [h.main.regEventId] } });
    documented.checkSchema("ApiKeyInfo", answer.body);
    // Another campaign's key answers that campaign's own event type.
    expect((await get(bearer(h.other.key))).body).toEqual({ data: { campaign_id: "othr-0002", backfill: false, event_types: [h.other.regEventId] } });
  });

  it("shows a key allowed to backfill and an event type registered a moment ago", async () => {
    await h.db.query("UPDATE api_key SET backfill = true WHERE id = $1", [h.other.keyId]);
    const added = await seedEventType(h.db, h.other.campaignId, { name: "added-later" });
    const answer = await get(bearer(h.other.key));
    expect(answer.body).toEqual({ data: { campaign_id: "othr-0002", backfill: true, event_types: [h.other.regEventId, added] } });
    // Only that key may backfill; the main campaign's key still may not.
    expect((await get(bearer(h.main.key))).body.data.backfill).toBe(false);
  });

  it("refuses a missing, malformed, unknown or revoked key and an archived campaign's key exactly as earn-event does", async () => {
    const cases: [string, Record<string, string>, string, string][] = [
      ["no header", {}, "missing-api-key", "missing API key: send Authorization: Bearer <API_KEY>"],
      ["not Bearer", { authorization: `Basic ${h.main.key}` }, "missing-api-key", "missing API key: send Authorization: Bearer <API_KEY>"],
      ["malformed", bearer("not-a-key"), "invalid-api-key", "invalid API key"],
      ["unknown", bearer(`pw_${"a".repeat(40)}`), "invalid-api-key", "invalid API key"],
      ["revoked", bearer(h.revokedKey), "invalid-api-key", "invalid API key"],
      ["archived", bearer(h.archivedKey), "campaign-archived", "the campaign of this API key is archived and accepts no events"],
    ];
    for (const [label, headers, code, message] of cases) {
      const answer = await get(headers);
      const earn = await h.request("POST", "/api/rest/earn-event", JSON.stringify(validBody(h)), { "content-type": "application/json", ...headers });
      expect([label, answer.status, answer.body]).toEqual([label, 200, { data: null, errors: [{ message, extensions: { code } }] }]);
      expect([label, answer.text]).toEqual([label, earn.text]);
      documented.checkSchema("Failure", answer.body);
    }
  });

  it("logs one outcome line per call under the route name, without the key", async () => {
    const before = h.logs.length;
    await get(bearer(h.main.key));
    const lines = h.logs.slice(before).filter((l) => l.msg === "ingest request");
    expect(lines).toEqual([expect.objectContaining({ route: "api-key", outcome: "accepted", campaign_id: "main-0001", key_prefix: h.main.prefix })]);
    expect(JSON.stringify(lines)).not.toContain(h.main.key);
  });

  it("answers 404 to other methods", async () => {
    const answer = await h.request("POST", PATH, "{}", { ...bearer(h.main.key), "content-type": "application/json" });
    expect(answer.status).toBe(404);
  });
});

describe("GET /api/rest/api-key under the rate limit", () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await startHarness({ RATE_LIMIT_EVENTS_PER_SECOND: "1", RATE_LIMIT_BURST: "2", BATCH_MAX_EVENTS: "2" });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("costs one unit of the key's bucket and answers rate-limited with Retry-After when it is empty", async () => {
    const call = () => limited.request("GET", PATH, undefined, bearer(limited.main.key));
    const answers = [await call(), await call(), await call()];
    expect(answers.slice(0, 2).map((a) => a.body.data?.campaign_id)).toEqual(["main-0001", "main-0001"]);
    expect(answers[2]?.body).toEqual({
      data: null,
      errors: [{ message: expect.stringMatching(/^rate limit of this API key exceeded; retry after \d+ s$/), extensions: { code: "rate-limited" } }],
    });
    expect(Number(answers[2]?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });
});

describe("GET /api/rest/api-key without PostgreSQL", () => {
  it("answers service-unavailable when the key's facts cannot be read", async () => {
    // The key is resolved (and cached) first; then PostgreSQL goes away from the app.
    const cached = await startHarness({ LOOKUP_CACHE_MS: "60000" });
    try {
      expect((await cached.request("GET", PATH, undefined, bearer(cached.main.key))).body.data.campaign_id).toBe("main-0001");
      await cached.appDb.close();
      const answer = await cached.request("GET", PATH, undefined, bearer(cached.main.key));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        data: null,
        errors: [{ message: "the API key cannot be looked up right now; retry later", extensions: { code: "service-unavailable" } }],
      });
    } finally {
      await cached.close();
    }
  });
});
