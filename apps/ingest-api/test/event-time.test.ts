// Event time at the ingest API: occurred_at accepted and published, each refusal with its code, backfill keys, campaign dates, idempotency_key.
import { eventIdForKey } from "@pointwise/ingest-core";
import { type Harness, startHarness, validBody } from "./harness";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  // No cache of keys: each test changes a key's rights or the campaign's dates and expects them at once.
  h = await startHarness({ LOOKUP_CACHE_MS: "0", OCCURRED_AT_MAX_SKEW_MS: "60000", OCCURRED_AT_MAX_AGE_MS: "3600000" });
});
afterAll(async () => {
  await h?.close();
});
afterEach(async () => {
  await h.db.query("UPDATE api_key SET backfill = false WHERE id = $1", [h.main.keyId]);
  await h.db.query("UPDATE campaign SET starts_at = NULL, ends_at = NULL WHERE id = $1", [h.main.campaignId]);
});

const ONE = "/api/rest/earn-event";
const BATCH = "/api/rest/earn-events";
const iso = (ms: number) => new Date(ms).toISOString();
const codesOf = (body: { errors?: { extensions: { code: string } }[] }) => (body.errors ?? []).map((e) => e.extensions.code);
const stored = async (eventId: string) => (await h.messages()).find((m) => m.event_id === eventId);

describe("occurred_at on the earn-event endpoints", () => {
  it("publishes the event time it was given (version 2 message), and the time received when none was given", async () => {
    const at = iso(Date.now() - 30 * 60_000);
    const given = await h.post(ONE, validBody(h, { occurred_at: at.replace(".000Z", "Z").replace(/\.(\d{3})Z$/, ".$1Z") }));
    expect(given.body.errors).toBeUndefined();
    const message = await stored(given.body.data.event_id);
    expect(message).toMatchObject({ v: 2, occurred_at: at, received_at: given.body.data.received_at, source: "api" });

    const plain = await h.post(ONE, validBody(h));
    expect(await stored(plain.body.data.event_id)).toMatchObject({ v: 2, occurred_at: plain.body.data.received_at, received_at: plain.body.data.received_at });
  });

  it("accepts an occurred_at with a lowercase t and z (RFC 3339 section 5.6) and publishes it in the canonical uppercase form", async () => {
    const at = iso(Date.now() - 30 * 60_000);
    const given = await h.post(ONE, validBody(h, { occurred_at: at.replace("T", "t").replace("Z", "z") }));
    expect(given.body.errors).toBeUndefined();
    expect((await stored(given.body.data.event_id))?.occurred_at).toBe(at);
  });

  it("refuses each bound with its own code and message, publishing nothing", async () => {
    const now = Date.now();
    const before = await h.count();
    const refuse = async (body: Record<string, unknown>) => {
      const answer = await h.post(ONE, validBody(h, body));
      expect(answer.status).toBe(200);
      expect(answer.body.data).toBeNull();
      return { code: codesOf(answer.body)[0], message: answer.body.errors[0].message as string };
    };
    expect(await refuse({ occurred_at: "2026-11-20T10:00:00+01:00" })).toEqual({
      code: "invalid-occurred-at",
      message: "occurred_at must be an RFC 3339 time in UTC with at most millisecond precision, e.g. 2026-11-20T10:00:00Z",
    });
    expect(await refuse({ occurred_at: iso(now + 10 * 60_000) })).toMatchObject({
      code: "occurred-at-in-future",
      message: expect.stringContaining("more than 60 s ahead"),
    });
    expect(await refuse({ occurred_at: iso(now - 2 * 3_600_000) })).toMatchObject({
      code: "occurred-at-too-old",
      message: expect.stringContaining("is more than 1 h in the past; this API key may not backfill"),
    });
    await h.db.query("UPDATE campaign SET starts_at = $2 WHERE id = $1", [h.main.campaignId, iso(now - 10 * 60_000)]);
    expect(await refuse({ occurred_at: iso(now - 20 * 60_000) })).toEqual({
      code: "occurred-at-before-campaign",
      message: `occurred_at ${iso(now - 20 * 60_000)} is before the campaign starts (${iso(now - 10 * 60_000)})`,
    });
    await h.db.query("UPDATE campaign SET ends_at = $2 WHERE id = $1", [h.main.campaignId, iso(now - 5 * 60_000)]);
    expect(await refuse({ occurred_at: iso(now - 5 * 60_000) })).toMatchObject({ code: "occurred-at-after-campaign" });
    // Without occurred_at the event happens now, after the campaign ended.
    expect(await refuse({})).toMatchObject({ code: "occurred-at-after-campaign", message: expect.stringContaining("the event (received now)") });
    expect(await h.count()).toBe(before);
  });

  it("lets a key allowed to backfill report back to the campaign's start, not before it", async () => {
    const now = Date.now();
    await h.db.query("UPDATE api_key SET backfill = true WHERE id = $1", [h.main.keyId]);
    await h.db.query("UPDATE campaign SET starts_at = $2 WHERE id = $1", [h.main.campaignId, iso(now - 30 * 86_400_000)]);
    const old = await h.post(ONE, validBody(h, { occurred_at: iso(now - 21 * 86_400_000) }));
    expect(old.body.errors).toBeUndefined();
    expect((await stored(old.body.data.event_id))?.occurred_at).toBe(iso(now - 21 * 86_400_000));
    const tooOld = await h.post(ONE, validBody(h, { occurred_at: iso(now - 31 * 86_400_000) }));
    expect(codesOf(tooOld.body)).toEqual(["occurred-at-before-campaign"]);
  });

  it("answers each batch item on its own: a refused time fails only that item", async () => {
    const now = Date.now();
    const answer = await h.post(BATCH, {
      events: [validBody(h, { occurred_at: iso(now - 60_000) }), validBody(h, { occurred_at: iso(now + 3_600_000) }), validBody(h)],
    });
    const [first, second, third] = answer.body.data.results;
    expect(first.ok).toBe(true);
    expect(second).toEqual({ ok: false, errors: [expect.objectContaining({ extensions: { code: "occurred-at-in-future" } })] });
    expect(third.ok).toBe(true);
    expect((await stored(first.event_id))?.occurred_at).toBe(iso(now - 60_000));
  });
});

describe("a retry under its Idempotency-Key after the campaign has ended", () => {
  it("answers with the first answer, byte for byte, instead of refusing the event it already took", async () => {
    for (const [path, body] of [
      [ONE, validBody(h, { amount: "2" })],
      [BATCH, { events: [validBody(h, { amount: "3" }), validBody(h, { amount: "4" })] }],
    ] as const) {
      const key = { "idempotency-key": `before-the-end-${path}` };
      const first = await h.post(path, body, key);
      expect(first.status).toBe(200);
      const before = await h.count();
      await h.db.query("UPDATE campaign SET ends_at = $2 WHERE id = $1", [h.main.campaignId, iso(Date.now())]);
      const retry = await h.post(path, body, key);
      expect([retry.status, retry.text, retry.headers["idempotent-replayed"]]).toEqual([200, first.text, "true"]);
      // A new request is judged now: the campaign has ended.
      const fresh = await h.post(path, body, { "idempotency-key": `after-the-end-${path}` });
      expect(JSON.stringify(fresh.body)).toContain("occurred-at-after-campaign");
      expect(await h.count()).toBe(before);
      await h.db.query("UPDATE campaign SET ends_at = NULL WHERE id = $1", [h.main.campaignId]);
    }
  });
});

describe("idempotency_key of an event", () => {
  it("gives the event the id derived from campaign and key, in every request that carries it", async () => {
    const key = `indexer-7/action/${Date.now()}`;
    const expected = eventIdForKey(h.main.campaignId, key);
    expect(expected).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const one = await h.post(ONE, validBody(h, { idempotency_key: key }));
    const again = await h.post(BATCH, { events: [validBody(h, { idempotency_key: key }), validBody(h)] });
    expect(one.body.data.event_id).toBe(expected);
    expect(again.body.data.results[0]).toEqual({ ok: true, event_id: expected });
    expect(again.body.data.results[1].event_id).not.toBe(expected);
    // Another campaign's event with the same key is another event.
    expect(eventIdForKey(h.other.campaignId, key)).not.toBe(expected);
  });

  it("refuses a bad idempotency_key with invalid-idempotency-key", async () => {
    const answer = await h.post(ONE, validBody(h, { idempotency_key: "" }));
    expect(codesOf(answer.body)).toEqual(["invalid-idempotency-key"]);
  });
});

describe("CSV imports with event time", () => {
  const upload = (text: string) =>
    h.request("POST", "/api/rest/earn-events/csv?mode=accept-valid", text, { authorization: `Bearer ${h.main.key}`, "content-type": "text/csv" });

  it("reads optional occurred_at and idempotency_key columns; an empty cell means none", async () => {
    const now = Date.now();
    const at = iso(now - 10 * 60_000);
    const text = [
      "account_id,identity_type,amount,reg_event_id,occurred_at,idempotency_key",
      `0x52908400098527886e0f7030069857d2e4169ee7,EVM_ADDRESS,1,${h.main.regEventId},${at},csv-row-1-${now}`,
      `0x52908400098527886e0f7030069857d2e4169ee7,EVM_ADDRESS,2,${h.main.regEventId},,`,
      `0x52908400098527886e0f7030069857d2e4169ee7,EVM_ADDRESS,3,${h.main.regEventId},${iso(now - 3 * 3_600_000)},`,
    ].join("\n");
    const answer = await upload(text);
    expect(answer.body.data).toMatchObject({ rows_read: 3, rows_valid: 2, rows_invalid: 1, rows_published: 2 });
    expect(answer.body.data.invalid_rows).toEqual([{ line: 4, errors: [expect.objectContaining({ extensions: { code: "occurred-at-too-old" } })] }]);
    const csv = (await h.messages()).filter((m) => m.source === "csv" && m.received_at >= iso(now - 1000));
    const keyed = csv.find((m) => m.event_id === eventIdForKey(h.main.campaignId, `csv-row-1-${now}`));
    expect(keyed).toMatchObject({ amount: "1", occurred_at: at });
    const plain = csv.find((m) => m.amount === "2");
    expect(plain?.occurred_at).toBe(plain?.received_at);
  });
});
