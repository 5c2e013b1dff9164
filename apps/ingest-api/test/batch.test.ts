// The batch endpoint on real services: per-item results in order, sources, and the contract the indexer uses.
import { type Harness, startHarness, validBody } from "./harness";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const MANY = "/api/rest/earn-events";

function events(n: number, at = 0): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => validBody(h, { identity_type: "GITHUB_PROVIDER_ID", account_id: String(1000 + at + i), amount: `${i}.5` }));
}

describe("POST /api/rest/earn-events", () => {
  it("accepts 1,000 events: one ok result per item in order, each stored once with source batch", async () => {
    const before = await h.count();
    const sent = events(1000);
    const answer = await h.post(MANY, { events: sent });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(["data"]);
    const results = answer.body.data.results as { ok: boolean; event_id: string }[];
    expect(results).toHaveLength(1000);
    expect(results.every((r) => r.ok === true && /^[0-9a-f-]{36}$/.test(r.event_id))).toBe(true);
    expect(new Set(results.map((r) => r.event_id)).size).toBe(1000);
    expect(await h.count()).toBe(before + 1000);
    const byId = new Map((await h.messages()).map((m) => [m.event_id, m]));
    results.forEach((r, i) => {
      const m = byId.get(r.event_id);
      expect(m).toMatchObject({ account_id: sent[i]?.account_id, amount: `${i}.5`, source: "batch", campaign_id: h.main.campaignId });
    });
  });

  it("marks events from the indexer's sink with source indexer when it sends X-Pointwise-Source: indexer", async () => {
    const answer = await h.post(MANY, { events: events(2, 5000) }, { "x-pointwise-source": "Indexer" });
    const ids = answer.body.data.results.map((r: { event_id: string }) => r.event_id);
    const stored = (await h.messages()).filter((m) => ids.includes(m.event_id));
    expect(stored.map((m) => m.source)).toEqual(["indexer", "indexer"]);
  });

  it("answers an empty batch with an empty result list", async () => {
    const answer = await h.post(MANY, { events: [] });
    expect(answer.body).toEqual({ data: { results: [] } });
  });

  it("gives a batch where no item is valid a failed result per item, not a whole-request failure", async () => {
    const before = await h.count();
    const answer = await h.post(MANY, { events: [{}, validBody(h, { amount: "-1" })] });
    expect(answer.body.data.results).toEqual([
      {
        ok: false,
        errors: ["account_id", "identity_type", "amount", "reg_event_id"].map((f) => ({ message: `${f} is required`, extensions: { code: "missing-field" } })),
      },
      { ok: false, errors: [{ message: "amount must not be negative", extensions: { code: "negative-amount" } }] },
    ]);
    expect(await h.count()).toBe(before);
  });

  it("keeps the contract the indexer's sink relies on: success has no top-level errors, whole failures have data null", async () => {
    const ok = await h.post(MANY, { events: events(1, 9000) });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.results[0].ok).toBe(true);
    const refused = await h.post(MANY, { events: events(1) }, { authorization: "Bearer nope" });
    expect(refused.body).toEqual({ data: null, errors: [{ message: "invalid API key", extensions: { code: "invalid-api-key" } }] });
  });
});
