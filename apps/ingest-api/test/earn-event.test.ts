// The earn-event endpoint on real services: exact amounts, compressed bodies, logs, keys and metrics.
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { type Harness, startHarness, validBody } from "./harness";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ LOOKUP_CACHE_MS: "0", KEY_TOUCH_INTERVAL_MS: "60000" });
});
afterAll(async () => {
  await h?.close();
});

const ONE = "/api/rest/earn-event";

describe("POST /api/rest/earn-event", () => {
  it("answers 200 with { data: { event_id, received_at } } and stores exactly that event, normalised, in the stream", async () => {
    const before = await h.count();
    const answer = await h.post(ONE, validBody(h, { account_id: "0x52908400098527886E0F7030069857D2E4169EE7", amount: "1e3" }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: { event_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), received_at: expect.any(String) },
    });
    expect(new Date(answer.body.data.received_at).toISOString()).toBe(answer.body.data.received_at);
    expect(await h.count()).toBe(before + 1);
    const stored = (await h.messages()).find((m) => m.event_id === answer.body.data.event_id);
    expect(stored).toEqual({
      v: 2,
      event_id: answer.body.data.event_id,
      campaign_id: h.main.campaignId,
      account_id: "0x52908400098527886e0f7030069857d2e4169ee7",
      identity_type: "EVM_ADDRESS",
      amount: "1000",
      reg_event_id: h.main.regEventId,
      received_at: answer.body.data.received_at,
      occurred_at: answer.body.data.received_at,
      source: "api",
    });
  });

  it("marks the event with source indexer when X-Pointwise-Source: indexer is sent, as on the batch endpoint", async () => {
    const answer = await h.post(ONE, validBody(h), { "x-pointwise-source": "indexer" });
    const stored = (await h.messages()).find((m) => m.event_id === answer.body.data.event_id);
    expect(stored?.source).toBe("indexer");
  });

  it("accepts gzip, deflate and br bodies, and applies the body limit to the decoded bytes", async () => {
    const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const amount = { gzip: "1.25", deflate: "2.5", br: "3.75" }[encoding] as string;
      const before = await h.count();
      const answer = await h.post(ONE, encode(Buffer.from(JSON.stringify(validBody(h, { amount })))), { "content-encoding": encoding });
      expect([encoding, answer.body.errors]).toEqual([encoding, undefined]);
      expect(await h.count()).toBe(before + 1);
      expect((await h.messages()).find((m) => m.event_id === answer.body.data.event_id)?.amount).toBe(amount);
    }
    // About 100 bytes on the wire, 128 KiB once decoded: over the 64 KiB limit.
    const bomb = gzipSync(Buffer.from(JSON.stringify(validBody(h, { padding: "a".repeat(128 * 1024) }))));
    expect(bomb.length).toBeLessThan(1024);
    const before = await h.count();
    const refused = await h.post(ONE, bomb, { "content-encoding": "gzip" });
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(["payload-too-large"]);
    expect(await h.count()).toBe(before);
  });

  it("keeps amounts exact: 18 decimals and 30 integer digits arrive as the same digits", async () => {
    const small = await h.post(ONE, validBody(h, { amount: "0.000000000000000001" }));
    const large = await h.post(ONE, validBody(h, { amount: "123456789012345678901234567890.123456789012345678" }));
    const float = await h.post(ONE, JSON.stringify(validBody(h)).replace('"10.5"', "0.1"));
    const messages = await h.messages();
    const amountOf = (a: { body: { data: { event_id: string } } }) => messages.find((m) => m.event_id === a.body.data.event_id)?.amount;
    expect(amountOf(small)).toBe("0.000000000000000001");
    expect(amountOf(large)).toBe("123456789012345678901234567890.123456789012345678");
    expect(amountOf(float)).toBe("0.1");
  });

  it("reads a JSON number amount as its literal's digits, where a 64-bit float would round them", async () => {
    const literal = (text: string) => h.post(ONE, JSON.stringify(validBody(h)).replace('"10.5"', text));
    const sixteen = await literal("123456789012.3456789");
    const above = await literal("9007199254740993");
    const exponent = await literal("1.23456789012345678e5");
    const messages = await h.messages();
    const amountOf = (a: { body: { data: { event_id: string } } }) => messages.find((m) => m.event_id === a.body.data.event_id)?.amount;
    expect(amountOf(sixteen)).toBe("123456789012.3456789");
    expect(amountOf(above)).toBe("9007199254740993");
    expect(amountOf(exponent)).toBe("123456.789012345678");
    // 19 digits after the point as a number: refused by the rule a string of the same digits meets, not rounded to 1.
    const before = await h.count();
    const refused = await literal("1.0000000000000000001");
    expect(refused.body.errors.map((e: { message: string }) => e.message)).toEqual(["amount must have at most 18 digits after the decimal point"]);
    expect(await h.count()).toBe(before);
  });

  it("logs the same body twice as two occurrences with two event ids", async () => {
    const before = await h.count();
    const body = validBody(h, { identity_type: "DISCORD_PROVIDER_ID", account_id: "80351110224678912" });
    const first = await h.post(ONE, body);
    const second = await h.post(ONE, body);
    expect(first.body.data.event_id).not.toBe(second.body.data.event_id);
    expect(await h.count()).toBe(before + 2);
  });

  it("stores provider ids as the exact digit strings (never through a JS number)", async () => {
    const answer = await h.post(ONE, validBody(h, { identity_type: "X_PROVIDER_ID", account_id: "18446744073709551615" }));
    const stored = (await h.messages()).find((m) => m.event_id === answer.body.data.event_id);
    expect(stored?.account_id).toBe("18446744073709551615");
  });

  it("accepts Content-Type with charset=utf-8 in any case", async () => {
    const answer = await h.post(ONE, validBody(h), { "content-type": "Application/JSON; Charset=UTF-8" });
    expect(answer.body.data.event_id).toBeDefined();
  });

  it("writes one structured line per request outcome, without the key or the account id", async () => {
    const from = h.logs.length;
    const email = "someone.private@example.com";
    await h.post(ONE, validBody(h, { identity_type: "EMAIL", account_id: email }));
    await h.post(ONE, validBody(h, { identity_type: "EMAIL", account_id: email, amount: -1 }));
    const lines = h.logs.slice(from).filter((l) => l.msg === "ingest request");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      route: "earn-event",
      outcome: "accepted",
      campaign_id: h.main.campaignId,
      key_prefix: h.main.prefix,
      source: "api",
      published: 1,
    });
    expect(lines[1]).toMatchObject({ route: "earn-event", outcome: "rejected", codes: ["negative-amount"], published: 0 });
    const text = JSON.stringify(h.logs.slice(from));
    expect(text).not.toContain(email);
    expect(text).not.toContain(h.main.key);
  });

  it("writes api_key.last_used_at once per interval, not once per request", async () => {
    const lastUsed = async () =>
      (await h.db.query<{ last_used_at: Date | null }>("SELECT last_used_at FROM api_key WHERE id = $1", [h.main.keyId])).rows[0]?.last_used_at ?? null;
    await h.post(ONE, validBody(h));
    let first: Date | null = null;
    for (let i = 0; i < 50 && first === null; i++) {
      await new Promise((r) => setTimeout(r, 20));
      first = await lastUsed();
    }
    expect(first).not.toBeNull();
    for (let i = 0; i < 5; i++) await h.post(ONE, validBody(h));
    await new Promise((r) => setTimeout(r, 100));
    expect(await lastUsed()).toEqual(first);
  });

  it("refuses a key as soon as it is revoked (with no lookup cache) with the unknown-key answer", async () => {
    const { rows } = await h.db.query<{ id: string }>("SELECT id FROM api_key WHERE campaign_id = $1", [h.other.campaignId]);
    const body = validBody(h, { reg_event_id: h.other.regEventId });
    expect((await h.post(ONE, body, { authorization: `Bearer ${h.other.key}` })).body.data.event_id).toBeDefined();
    await h.db.query("UPDATE api_key SET revoked_at = now() WHERE id = $1", [rows[0]?.id]);
    const refused = await h.post(ONE, body, { authorization: `Bearer ${h.other.key}` });
    expect(refused.body).toEqual({ data: null, errors: [{ message: "invalid API key", extensions: { code: "invalid-api-key" } }] });
  });

  it("answers other methods and paths with the services' usual 404", async () => {
    const answer = await h.request("GET", ONE, undefined, { authorization: `Bearer ${h.main.key}` });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: { code: "not-found", message: "no such endpoint" } });
  });

  it("serves Prometheus metrics counting requests, error codes and published events", async () => {
    const metrics = await h.request("GET", "/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/pointwise_ingest_requests_total\{route="earn-event",outcome="accepted"\} \d+/);
    expect(metrics.text).toMatch(/pointwise_ingest_errors_total\{route="earn-event",code="negative-amount"\} 1/);
    expect(metrics.text).toMatch(/pointwise_ingest_events_published_total\{source="api"\} \d+/);
  });

  // After the metrics test, which counts exactly one negative-amount answer.
  it("lists every problem of a body: a missing reg_event_id does not hide a negative amount", async () => {
    const before = await h.count();
    const answer = await h.post(ONE, { account_id: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", identity_type: "EVM_ADDRESS", amount: "-1" });
    expect(answer.body).toEqual({
      data: null,
      errors: [
        { message: "reg_event_id is required", extensions: { code: "missing-field" } },
        { message: "amount must not be negative", extensions: { code: "negative-amount" } },
      ],
    });
    expect(await h.count()).toBe(before);
  });
});
