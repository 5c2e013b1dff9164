/**
 * Every error cause of the ingest endpoints, table-driven: each answers HTTP 200 with
 * `{ data: null, errors: [...] }` (or, for a batch item, a failed result) carrying its one stable code,
 * and publishes nothing. The last test checks that the table covers every documented code.
 */
import { generateApiKey } from "@pointwise/auth";
import { INGEST_ERROR_CODE_LIST, requestFingerprint } from "@pointwise/ingest-core";
import { closeServer, listen } from "@pointwise/runtime";
import { freePort, type NatsServer, seedApiKey, spawnApp, startNatsServer, testServiceEnv, uniqueName, waitUntil } from "@pointwise/testkit";
import express from "express";
import { envelopeErrors } from "../src/errors";
import { type Answer, type Harness, rawRequest, startHarness, validBody } from "./harness";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const seen = new Set<string>();
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ IDEMPOTENCY_WAIT_MS: "200", BODY_LIMIT_BYTES: "1024", BATCH_MAX_EVENTS: "3", CSV_MAX_ROWS: "2", CSV_MAX_BYTES: "2048" });
});
afterAll(async () => {
  await h?.close();
});

const ONE = "/api/rest/earn-event";
const MANY = "/api/rest/earn-events";
const CSV = "/api/rest/earn-events/csv";
const CSV_HEADER = "account_id,identity_type,amount,reg_event_id";

type Case = [name: string, send: () => Promise<Answer>, code: string, message?: string | RegExp];

/** Sends an event of the main campaign while it has the given dates (the key cache of this harness may hold the old ones). */
async function withDates(startsAt: string | null, endsAt: string | null, body: Record<string, unknown>): Promise<Answer> {
  await h.db.query("UPDATE campaign SET starts_at = $2, ends_at = $3 WHERE id = $1", [h.main.campaignId, startsAt, endsAt]);
  try {
    // A fresh key of the campaign is not in the resolver's cache yet, so it carries the new dates.
    const { key } = await seedApiKey(h.db, h.main.campaignId);
    return await h.post(ONE, body, { authorization: `Bearer ${key}` });
  } finally {
    await h.db.query("UPDATE campaign SET starts_at = NULL, ends_at = NULL WHERE id = $1", [h.main.campaignId]);
  }
}

/** The whole-request failure envelope with `code` (and `message` when given), nothing published. */
async function expectRefused(send: () => Promise<Answer>, code: string, message?: string | RegExp): Promise<Answer> {
  const before = await h.count();
  const answer = await send();
  expect(answer.status).toBe(200);
  expect(answer.body.data).toBeNull();
  expect(answer.body.errors.length).toBeGreaterThan(0);
  const codes = answer.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code);
  expect(codes).toContain(code);
  for (const error of answer.body.errors) {
    expect(Object.keys(error).sort()).toEqual(["extensions", "message"]);
    expect(typeof error.message).toBe("string");
  }
  if (message !== undefined) {
    const messages = answer.body.errors.filter((e: { extensions: { code: string } }) => e.extensions.code === code).map((e: { message: string }) => e.message);
    expect(messages.some((m: string) => (typeof message === "string" ? m === message : message.test(m)))).toBe(true);
  }
  expect(await h.count()).toBe(before);
  for (const c of codes) seen.add(c);
  return answer;
}

/** A JSON body whose account_id holds a 0xFF byte, which no UTF-8 text contains. */
function notUtf8(h: Harness, wrap: (event: string) => string = (e) => e): Buffer {
  const [before, after] = wrap(JSON.stringify(validBody(h, { account_id: "1234567890#" }))).split("#");
  return Buffer.concat([Buffer.from(before as string), Buffer.from([0xff]), Buffer.from(after as string)]);
}

const json =
  (path: string, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    h.post(path, typeof body === "function" ? body() : body, headers);
const csv =
  (text: () => string, query = "", headers: Record<string, string> = {}) =>
  () =>
    h.request("POST", `${CSV}${query}`, text(), { authorization: `Bearer ${h.main.key}`, "content-type": "text/csv", ...headers });

describe("single event: every cause answers its code and publishes nothing", () => {
  const cases: Case[] = [
    ["no Authorization header", () => h.request("POST", ONE, JSON.stringify(validBody(h)), { "content-type": "application/json" }), "missing-api-key"],
    ["a Basic credential instead of a Bearer key", json(ONE, {}, { authorization: "Basic dXNlcjpwYXNz" }), "missing-api-key"],
    ["a malformed key", json(ONE, {}, { authorization: "Bearer pw_EXAMPLE_not_a_real_key" }), "invalid-api-key", "invalid API key"],
    ["an unknown key", json(ONE, {}, { authorization: `Bearer ${generateApiKey().key}` }), "invalid-api-key", "invalid API key"],
    ["a revoked key", () => h.post(ONE, {}, { authorization: `Bearer ${h.revokedKey}` }), "invalid-api-key", "invalid API key"],
    ["a key of an archived campaign", () => h.post(ONE, validBody(h), { authorization: `Bearer ${h.archivedKey}` }), "campaign-archived"],
    ["Content-Type text/plain", () => h.post(ONE, validBody(h), { "content-type": "text/plain" }), "unsupported-media-type"],
    ["no Content-Type", () => h.request("POST", ONE, JSON.stringify(validBody(h)), { authorization: `Bearer ${h.main.key}` }), "unsupported-media-type"],
    ["a charset other than UTF-8", () => h.post(ONE, validBody(h), { "content-type": "application/json; charset=iso-8859-1" }), "unsupported-media-type"],
    ["an unsupported Content-Encoding", () => h.post(ONE, validBody(h), { "content-encoding": "compress" }), "unsupported-media-type"],
    ["a body over the limit", () => h.post(ONE, { ...validBody(h), account_id: "x".repeat(2000) }), "payload-too-large", "body is larger than 1024 bytes"],
    ["a body that is not JSON", json(ONE, "{"), "malformed-json", "body is not valid JSON"],
    [
      "bytes that are not UTF-8 in account_id",
      () => h.post(ONE, notUtf8(h)),
      "invalid-utf8",
      /^body must be UTF-8 text: the bytes after byte \d+ are not valid UTF-8$/,
    ],
    [
      "a cut UTF-8 character (0xC3 then a quote), named at its first byte",
      () => h.post(ONE, Buffer.concat([Buffer.from('{"account_id":"a'), Buffer.from([0xc3]), Buffer.from('"}')])),
      "invalid-utf8",
      `body must be UTF-8 text: the bytes after byte ${'{"account_id":"a'.length} are not valid UTF-8`,
    ],
    [
      "an encoded surrogate half (0xED 0xA0 0x80)",
      () => h.post(ONE, Buffer.concat([Buffer.from('{"account_id":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])),
      "invalid-utf8",
    ],
    ["an empty body", json(ONE, ""), "invalid-body"],
    ["a body of only whitespace", json(ONE, " \r\n\t "), "invalid-body", "body is empty: send a JSON object"],
    ["a JSON array", json(ONE, () => [validBody(h)]), "invalid-body", "body must be a JSON object"],
    ["a JSON string", json(ONE, '"event"'), "invalid-body"],
    ["JSON null", json(ONE, "null"), "invalid-body"],
    ["a gzip header on a plain body", () => h.post(ONE, validBody(h), { "content-encoding": "gzip" }), "invalid-body"],
    ["an empty Idempotency-Key", () => h.post(ONE, validBody(h), { "idempotency-key": "" }), "invalid-idempotency-key"],
    ["an Idempotency-Key with a space", () => h.post(ONE, validBody(h), { "idempotency-key": "a b" }), "invalid-idempotency-key"],
    ["an Idempotency-Key of 256 characters", () => h.post(ONE, validBody(h), { "idempotency-key": "k".repeat(256) }), "invalid-idempotency-key"],
    ["X-Pointwise-Source other than indexer", () => h.post(ONE, validBody(h), { "x-pointwise-source": "api" }), "invalid-source"],
    ["an empty object (every field missing)", json(ONE, {}), "missing-field", "account_id is required"],
    ["amount null", () => h.post(ONE, validBody(h, { amount: null })), "missing-field", "amount is required"],
    ["an extra field", () => h.post(ONE, validBody(h, { points: 5 })), "unknown-field", 'unknown field "points"'],
    [
      "a __proto__ key",
      () => h.post(ONE, JSON.stringify(validBody(h)).replace("{", '{"__proto__":{"admin":true},')),
      "unknown-field",
      'unknown field "__proto__"',
    ],
    ["a constructor key", () => h.post(ONE, validBody(h, { constructor: { prototype: {} } })), "unknown-field", 'unknown field "constructor"'],
    ["a prototype key", () => h.post(ONE, validBody(h, { prototype: 1 })), "unknown-field", 'unknown field "prototype"'],
    ["an unknown identity_type (the spec's case)", () => h.post(ONE, validBody(h, { identity_type: "PHONE" })), "validation-failed", "invalid identity_type"],
    ["identity_type in lower case", () => h.post(ONE, validBody(h, { identity_type: "evm_address" })), "validation-failed", "invalid identity_type"],
    ["identity_type as a number", () => h.post(ONE, validBody(h, { identity_type: 1 })), "validation-failed", "invalid identity_type"],
    [
      "an EVM address with a bad EIP-55 checksum",
      () => h.post(ONE, validBody(h, { account_id: "0x52908400098527886E0F7030069857D2E4169Ee7" })),
      "invalid-account-id",
      /EVM_ADDRESS: EIP-55 checksum mismatch/,
    ],
    [
      "an EVM address of 39 hex digits",
      () => h.post(ONE, validBody(h, { account_id: "0x52908400098527886e0f7030069857d2e4169ee" })),
      "invalid-account-id",
      /not a valid EVM_ADDRESS/,
    ],
    [
      "the EVM zero address",
      () => h.post(ONE, validBody(h, { account_id: "0x0000000000000000000000000000000000000000" })),
      "invalid-account-id",
      "account_id is not a valid EVM_ADDRESS: must not be the zero address, which no wallet holds",
    ],
    [
      "a Solana address with a 0",
      () => h.post(ONE, validBody(h, { identity_type: "SOLANA_ADDRESS", account_id: "0".repeat(44) })),
      "invalid-account-id",
      /SOLANA_ADDRESS/,
    ],
    [
      "a Bitcoin address with a bad checksum",
      () => h.post(ONE, validBody(h, { identity_type: "BTC_ADDRESS", account_id: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3" })),
      "invalid-account-id",
      /BTC_ADDRESS/,
    ],
    [
      "an e-mail of 255 characters",
      () => h.post(ONE, validBody(h, { identity_type: "EMAIL", account_id: `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}` })),
      "invalid-account-id",
      /EMAIL/,
    ],
    [
      "a Discord id above 2^64-1",
      () => h.post(ONE, validBody(h, { identity_type: "DISCORD_PROVIDER_ID", account_id: "18446744073709551616" })),
      "invalid-account-id",
      /DISCORD_PROVIDER_ID/,
    ],
    [
      "an X id as a JSON number",
      () => h.post(ONE, validBody(h, { identity_type: "X_PROVIDER_ID", account_id: 12345 })),
      "invalid-account-id",
      /X_PROVIDER_ID: must be a string, got a number \(a number would lose precision\)/,
    ],
    [
      "a Discord id above 2^53 as a JSON number",
      () => h.post(ONE, JSON.stringify(validBody(h, { identity_type: "DISCORD_PROVIDER_ID", account_id: "#" })).replace('"#"', "80351110224678912123")),
      "invalid-account-id",
      /DISCORD_PROVIDER_ID: must be a string, got a number \(a number would lose precision\)/,
    ],
    [
      "a GitHub id with letters",
      () => h.post(ONE, validBody(h, { identity_type: "GITHUB_PROVIDER_ID", account_id: "12a" })),
      "invalid-account-id",
      /GITHUB_PROVIDER_ID/,
    ],
    [
      "account_id as an object",
      () => h.post(ONE, validBody(h, { account_id: {} })),
      "invalid-account-id",
      "account_id is not a valid EVM_ADDRESS: must be a string, got an object",
    ],
    [
      "account_id as a number with an unknown identity_type",
      () => h.post(ONE, validBody(h, { identity_type: "PHONE", account_id: 5 })),
      "invalid-account-id",
      "account_id must be a string",
    ],
    ["amount as text", () => h.post(ONE, validBody(h, { amount: "ten" })), "invalid-amount"],
    ["amount as a boolean", () => h.post(ONE, validBody(h, { amount: true })), "invalid-amount"],
    ["amount with 19 decimals", () => h.post(ONE, validBody(h, { amount: "0.0000000000000000001" })), "invalid-amount"],
    ["amount with 31 integer digits", () => h.post(ONE, validBody(h, { amount: "1".repeat(31) })), "invalid-amount"],
    ["amount as hexadecimal", () => h.post(ONE, validBody(h, { amount: "0x10" })), "invalid-amount"],
    ["amount with 19 decimals as a JSON number", () => h.post(ONE, JSON.stringify(validBody(h)).replace('"10.5"', "1.0000000000000000001")), "invalid-amount"],
    ["amount beyond a float's range as a JSON number", () => h.post(ONE, JSON.stringify(validBody(h)).replace('"10.5"', "1e400")), "invalid-amount"],
    ["amount Infinity as text", () => h.post(ONE, validBody(h, { amount: "Infinity" })), "invalid-amount"],
    ["a negative amount", () => h.post(ONE, validBody(h, { amount: -1 })), "negative-amount", "amount must not be negative"],
    ["a negative decimal amount as text", () => h.post(ONE, validBody(h, { amount: "-0.5" })), "negative-amount", "amount must not be negative"],
    ["reg_event_id that is not a UUID", () => h.post(ONE, validBody(h, { reg_event_id: "trade" })), "invalid-reg-event-id"],
    ["reg_event_id as a number", () => h.post(ONE, validBody(h, { reg_event_id: 7 })), "invalid-reg-event-id"],
    ["an unregistered reg_event_id", () => h.post(ONE, validBody(h, { reg_event_id: "00000000-0000-4000-8000-000000000000" })), "unknown-event-type"],
    ["a retired event type", () => h.post(ONE, validBody(h, { reg_event_id: h.main.retiredEventId })), "unknown-event-type"],
    ["an event type of another campaign", () => h.post(ONE, validBody(h, { reg_event_id: h.other.regEventId })), "unknown-event-type"],
    [
      "an occurred_at with an offset",
      () => h.post(ONE, validBody(h, { occurred_at: "2026-11-20T10:00:00+01:00" })),
      "invalid-occurred-at",
      /RFC 3339 time in UTC/,
    ],
    [
      "an occurred_at an hour ahead",
      () => h.post(ONE, validBody(h, { occurred_at: new Date(Date.now() + 3_600_000).toISOString() })),
      "occurred-at-in-future",
      /more than 300 s ahead of the service's clock/,
    ],
    [
      "an occurred_at two days back from a key that may not backfill",
      () => h.post(ONE, validBody(h, { occurred_at: new Date(Date.now() - 2 * 86_400_000).toISOString() })),
      "occurred-at-too-old",
      /more than 1 d in the past; this API key may not backfill/,
    ],
    [
      "an event before the campaign starts",
      () => withDates("2999-01-01T00:00:00Z", null, validBody(h)),
      "occurred-at-before-campaign",
      /before the campaign starts/,
    ],
    [
      "an event after the campaign ended",
      () => withDates(null, "2020-01-01T00:00:00Z", validBody(h)),
      "occurred-at-after-campaign",
      /not before the campaign ends/,
    ],
    ["an idempotency_key of 256 characters", () => h.post(ONE, validBody(h, { idempotency_key: "k".repeat(256) })), "invalid-idempotency-key"],
  ];

  it.each(cases)("%s", async (...[, send, code, message]: Case) => {
    await expectRefused(send, code, message);
  });

  it("answers an unknown and a revoked key identically", async () => {
    const unknown = await h.post(ONE, validBody(h), { authorization: `Bearer ${generateApiKey().key}` });
    const revoked = await h.post(ONE, validBody(h), { authorization: `Bearer ${h.revokedKey}` });
    expect(revoked.body).toEqual(unknown.body);
    expect(revoked.body).toEqual({ data: null, errors: [{ message: "invalid API key", extensions: { code: "invalid-api-key" } }] });
  });

  it("reports every problem of a body at once", async () => {
    const answer = await expectRefused(
      () => h.post(ONE, { account_id: "nope", identity_type: "EVM_ADDRESS", amount: -3, reg_event_id: "x" }),
      "invalid-account-id",
    );
    expect(answer.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
      "invalid-account-id",
      "negative-amount",
      "invalid-reg-event-id",
    ]);
  });
});

describe("batch: whole-request causes and per-item results", () => {
  const cases: Case[] = [
    ["no key", () => h.request("POST", MANY, JSON.stringify({ events: [] }), { "content-type": "application/json" }), "missing-api-key"],
    ["a revoked key", () => h.post(MANY, { events: [validBody(h)] }, { authorization: `Bearer ${h.revokedKey}` }), "invalid-api-key"],
    ["text/csv to the JSON endpoint", () => h.post(MANY, { events: [] }, { "content-type": "text/csv" }), "unsupported-media-type"],
    ["malformed JSON", json(MANY, '{"events": ['), "malformed-json"],
    [
      "bytes that are not UTF-8 in one item",
      () =>
        h.post(
          MANY,
          notUtf8(h, (e) => `{"events":[${JSON.stringify(validBody(h))},${e}]}`),
        ),
      "invalid-utf8",
    ],
    ["an array instead of an object", json(MANY, () => [validBody(h)]), "invalid-body"],
    ["events that is not an array", json(MANY, () => ({ events: validBody(h) })), "invalid-body", "events must be an array"],
    ["no events field", json(MANY, {}), "missing-field", "events is required"],
    ["a field beside events", json(MANY, { events: [], dryRun: true }), "unknown-field"],
    [
      "more events than the limit",
      () => h.post(MANY, { events: [validBody(h), validBody(h), validBody(h), validBody(h)] }),
      "too-many-events",
      "events must hold at most 3 items, got 4",
    ],
    ["X-Pointwise-Source other than indexer", () => h.post(MANY, { events: [validBody(h)] }, { "x-pointwise-source": "chain" }), "invalid-source"],
    ["an invalid Idempotency-Key", () => h.post(MANY, { events: [validBody(h)] }, { "idempotency-key": "é" }), "invalid-idempotency-key"],
  ];
  it.each(cases)("%s", async (...[, send, code, message]: Case) => {
    await expectRefused(send, code, message);
  });

  it("answers one failed result per invalid item, in order, and publishes only the valid ones", async () => {
    const before = await h.count();
    const answer = await h.post(MANY, { events: [validBody(h, { amount: -2 }), validBody(h), validBody(h, { identity_type: "PHONE" })] });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    const [first, second, third] = answer.body.data.results;
    expect(first).toEqual({ ok: false, errors: [{ message: "amount must not be negative", extensions: { code: "negative-amount" } }] });
    expect(second).toEqual({ ok: true, event_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(third).toEqual({ ok: false, errors: [{ message: "invalid identity_type", extensions: { code: "validation-failed" } }] });
    expect(await h.count()).toBe(before + 1);
    for (const r of [first, third]) for (const e of r.errors) seen.add(e.extensions.code);
  });
});

describe("CSV: whole-request causes publish nothing", () => {
  const row = () => `123,DISCORD_PROVIDER_ID,1,${h.main.regEventId}`;
  const cases: Case[] = [
    ["no key", () => h.request("POST", CSV, `${CSV_HEADER}\n${row()}\n`, { "content-type": "text/csv" }), "missing-api-key"],
    ["a mode that does not exist", csv(() => `${CSV_HEADER}\n${row()}\n`, "?mode=some"), "invalid-mode"],
    ["Content-Type application/json", csv(() => `${CSV_HEADER}\n${row()}\n`, "", { "content-type": "application/json" }), "unsupported-media-type"],
    ["a gzip Content-Encoding", csv(() => `${CSV_HEADER}\n${row()}\n`, "", { "content-encoding": "gzip" }), "unsupported-media-type"],
    ["X-Pointwise-Source on an upload", csv(() => `${CSV_HEADER}\n${row()}\n`, "", { "x-pointwise-source": "indexer" }), "invalid-source"],
    ["an upload's Idempotency-Key with a space", csv(() => `${CSV_HEADER}\n${row()}\n`, "", { "idempotency-key": "a b" }), "invalid-idempotency-key"],
    ["a file over the byte limit", csv(() => `${CSV_HEADER}\n${`${row()}\n`.repeat(40)}`), "payload-too-large"],
    ["more rows than the limit", csv(() => `${CSV_HEADER}\n${row()}\n${row()}\n${row()}\n`), "too-many-rows", "CSV file has more than 2 data rows"],
    ["an empty file", csv(() => ""), "csv-invalid-header"],
    [
      "a header with an unknown column",
      csv(() => `account_id,identity_type,amount,reg_event_id,points\n${row()},1\n`),
      "csv-invalid-header",
      /unknown column "points"/,
    ],
    ["a header missing a column", csv(() => `account_id,identity_type,amount\n1,2,3\n`), "csv-invalid-header", /missing column reg_event_id/],
    ["a header naming a column twice", csv(() => `account_id,amount,amount,reg_event_id\n1,2,3,4\n`), "csv-invalid-header", /repeated column "amount"/],
    ["an unclosed quote", csv(() => `${CSV_HEADER}\n"123,DISCORD_PROVIDER_ID,1,x\n`), "csv-malformed", /line/],
    [
      "bytes that are not UTF-8 in a row",
      () =>
        h.request(
          "POST",
          CSV,
          Buffer.concat([Buffer.from(`${CSV_HEADER}\n${row()}\n12`), Buffer.from([0xff]), Buffer.from(`3,DISCORD_PROVIDER_ID,1,${h.main.regEventId}\n`)]),
          {
            authorization: `Bearer ${h.main.key}`,
            "content-type": "text/csv",
          },
        ),
      "invalid-utf8",
      /^CSV file must be UTF-8 text: the bytes after byte \d+ are not valid UTF-8$/,
    ],
    [
      "a file that ends inside a UTF-8 character",
      () =>
        h.request("POST", CSV, Buffer.concat([Buffer.from(`${CSV_HEADER}\n${row()}\n`), Buffer.from([0xe2, 0x82])]), {
          authorization: `Bearer ${h.main.key}`,
          "content-type": "text/csv",
        }),
      "invalid-utf8",
    ],
    [
      "progress of an unknown import",
      () => h.request("GET", "/api/rest/csv-imports/00000000-0000-4000-8000-000000000000", undefined, { authorization: `Bearer ${h.main.key}` }),
      "csv-import-not-found",
    ],
    [
      "progress of an import id that is not valid percent-encoding",
      () => h.request("GET", "/api/rest/csv-imports/%ZZ", undefined, { authorization: `Bearer ${h.main.key}` }),
      "csv-import-not-found",
    ],
  ];
  it.each(cases)("%s", async (...[, send, code, message]: Case) => {
    await expectRefused(send, code, message);
  });

  it("lists a row with the wrong number of fields as csv-invalid-row with its line number", async () => {
    const before = await h.count();
    const answer = await csv(() => `${CSV_HEADER}\n${row()}\n1,2\n`)();
    expect(answer.body.data).toMatchObject({ status: "rejected", rows_read: 2, rows_invalid: 1, rows_published: 0 });
    expect(answer.body.data.invalid_rows).toEqual([
      { line: 3, errors: [{ message: "row has 2 fields, the header has 4", extensions: { code: "csv-invalid-row" } }] },
    ]);
    expect(await h.count()).toBe(before);
    seen.add("csv-invalid-row");
  });
});

describe("Idempotency-Key conflicts", () => {
  it("answers idempotency-key-reused for the same key with another body, and publishes nothing", async () => {
    expect((await h.post(ONE, validBody(h), { "idempotency-key": "order-1" })).body.data.event_id).toBeDefined();
    await expectRefused(() => h.post(ONE, validBody(h, { amount: "11" }), { "idempotency-key": "order-1" }), "idempotency-key-reused");
    await expectRefused(() => h.post(MANY, { events: [validBody(h)] }, { "idempotency-key": "order-1" }), "idempotency-key-reused");
  });

  it("answers idempotency-key-in-progress while another request holds the key, and publishes nothing", async () => {
    const body = JSON.stringify(validBody(h, { amount: "12" }));
    // Another replica claimed the key and is still publishing (its lease is live, no answer stored yet).
    const claim = await h.ctx.pipeline.idempotency.claim(h.main.campaignId, "order-2", requestFingerprint("earn-event", "api", body), 1, {
      backfill: false,
      startsAt: null,
      endsAt: null,
    });
    expect(claim.kind).toBe("owner");
    await expectRefused(() => h.post(ONE, body, { "idempotency-key": "order-2" }), "idempotency-key-in-progress");
  });
});

describe("rate limit per API key", () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await startHarness({ RATE_LIMIT_EVENTS_PER_SECOND: "1", RATE_LIMIT_BURST: "3", BATCH_MAX_EVENTS: "3" });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("lets the burst through, then answers rate-limited with Retry-After and publishes nothing more", async () => {
    const batch = await limited.post(MANY, { events: [validBody(limited), validBody(limited)] });
    expect(batch.body.data.results).toHaveLength(2);
    expect((await limited.post(ONE, validBody(limited))).body.data.event_id).toBeDefined();
    const before = await limited.count();
    const refused = await limited.post(ONE, validBody(limited));
    expect(refused.status).toBe(200);
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors[0].extensions.code).toBe("rate-limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(await limited.count()).toBe(before);
    // The other campaign's key has a bucket of its own.
    expect(
      (await limited.post(ONE, validBody(limited, { reg_event_id: limited.other.regEventId }), { authorization: `Bearer ${limited.other.key}` })).body.data
        .event_id,
    ).toBeDefined();
    seen.add("rate-limited");
  });
});

describe("dependencies down", () => {
  let nats: NatsServer;
  let down: Harness;
  beforeAll(async () => {
    nats = await startNatsServer();
    down = await startHarness({ NATS_URL: nats.url, PUBLISH_TIMEOUT_MS: "500", LOOKUP_CACHE_MS: "0" }, { natsUrl: nats.url });
  });
  afterAll(async () => {
    await down?.close();
    await nats?.destroy();
  });

  it("answers bus-unavailable while NATS is down, and nothing of it is stored once NATS is back", async () => {
    const before = await down.count();
    await nats.stop();
    const single = await down.post(ONE, validBody(down));
    expect(single.body).toEqual({
      data: null,
      errors: [{ message: "event bus unavailable; the event was not accepted, retry later", extensions: { code: "bus-unavailable" } }],
    });
    const batch = await down.post(MANY, { events: [validBody(down), validBody(down)] });
    expect(batch.body.data).toBeNull();
    expect(batch.body.errors[0].extensions.code).toBe("bus-unavailable");
    await nats.start();
    await down.waitForBus();
    expect(await down.count()).toBe(before);
    seen.add("bus-unavailable");
  });

  it("answers service-unavailable when PostgreSQL cannot be reached", async () => {
    await down.appDb.close();
    const answer = await down.post(ONE, validBody(down));
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors[0].extensions.code).toBe("service-unavailable");
    seen.add("service-unavailable");
  });
});

describe("start-up", () => {
  it("answers starting, still HTTP 200 in the envelope, while the process is reaching NATS", async () => {
    const app = await spawnApp(
      "ingest-api",
      { ...testServiceEnv(uniqueName("t_start")), NATS_URL: `nats://127.0.0.1:${await freePort()}`, STARTUP_TIMEOUT_MS: "60000" },
      { waitReady: false },
    );
    try {
      await waitUntil(() => app.output().includes("waiting for nats"), 45_000, "ingest-api to wait for NATS");
      const res = await fetch(`${app.url}${ONE}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(res.status).toBe(200);
      expect(res.headers.get("retry-after")).toBe("1");
      const body = (await res.json()) as { data: unknown; errors: { message: string; extensions: { code: string } }[] };
      expect(body.data).toBeNull();
      expect(body.errors).toEqual([{ message: expect.stringMatching(/waiting for (postgres, )?nats/), extensions: { code: "starting" } }]);
      seen.add("starting");
    } finally {
      await app.stop();
    }
  });
});

describe("internal", () => {
  // No request can make the service fail on purpose, so a route that throws a plain error stands in for a fault of
  // ours; what is checked is the service's own error handler, with the service's own context.
  it("answers a fault of the service's own with HTTP 200, code internal, no detail, and logs it", async () => {
    const app = express();
    app.post(ONE, () => {
      throw new TypeError("cannot read properties of undefined (reading 'secret detail')");
    });
    app.use(envelopeErrors(h.ctx));
    const server = await listen(app, 0, "127.0.0.1");
    try {
      const address = server.address();
      const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
      const before = h.logs.length;
      const answer = await rawRequest(url, "POST", ONE, "{}", { "content-type": "application/json" });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ data: null, errors: [{ message: "internal error; nothing was accepted", extensions: { code: "internal" } }] });
      expect(h.logs.slice(before)).toContainEqual(expect.objectContaining({ level: "error", msg: "ingest request failed" }));
      seen.add(answer.body.errors[0].extensions.code);
    } finally {
      await closeServer(server);
    }
  });
});

describe("the table", () => {
  it("covers every documented code", () => {
    expect([...seen].filter((c) => !INGEST_ERROR_CODE_LIST.includes(c as never))).toEqual([]);
    expect(INGEST_ERROR_CODE_LIST.filter((c) => !seen.has(c))).toEqual([]);
  });
});
