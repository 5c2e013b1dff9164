/**
 * Property test against the running endpoints (in-process app on an ephemeral port, real PostgreSQL,
 * Redis and NATS): thousands of random bodies and headers. Whatever arrives, the answer is HTTP 200 with
 * a well-formed envelope and a documented code (never `internal`), and an event reaches the stream only
 * from a body built valid; every event in the stream is one that some answer reported as accepted.
 */
import { generateApiKey } from "@pointwise/auth";
import { INGEST_ERROR_CODE_LIST } from "@pointwise/ingest-core";
import fc from "fast-check";
import { type Answer, type Harness, startHarness } from "./harness";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ BODY_LIMIT_BYTES: "2048", BATCH_MAX_EVENTS: "8" });
});
afterAll(async () => {
  await h?.close();
});

const CODES = new Set<string>(INGEST_ERROR_CODE_LIST.filter((c) => c !== "internal"));
const accepted = new Set<string>();
let uniqueKey = 0;

/** A body and whether it was built to be valid, built to break one rule, or is just random. */
interface Body {
  value: unknown;
  kind: "valid" | "invalid" | "random";
}

const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);
const validEvent = () =>
  fc
    .oneof(
      fc.record({ account_id: fc.constant("0x52908400098527886e0f7030069857d2e4169ee7"), identity_type: fc.constant("EVM_ADDRESS") }),
      fc.record({ account_id: fc.constant("0x52908400098527886E0F7030069857D2E4169EE7"), identity_type: fc.constant("EVM_ADDRESS") }),
      fc.record({ account_id: fc.constant("11111111111111111111111111111111"), identity_type: fc.constant("SOLANA_ADDRESS") }),
      fc.record({ account_id: fc.constant("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"), identity_type: fc.constant("BTC_ADDRESS") }),
      fc.record({
        account_id: fc.emailAddress().filter((e) => e.length <= 200 && /^[\x21-\x7e]+$/.test(e) && !e.includes('"')),
        identity_type: fc.constant("EMAIL"),
      }),
      fc.record({
        account_id: fc.bigInt({ min: 1n, max: 2n ** 64n - 1n }).map(String),
        identity_type: fc.constantFrom("DISCORD_PROVIDER_ID", "X_PROVIDER_ID", "GITHUB_PROVIDER_ID"),
      }),
    )
    .chain((identity) =>
      fc.record({
        account_id: fc.constant(identity.account_id),
        identity_type: fc.constant(identity.identity_type),
        amount: fc.oneof(
          fc.nat({ max: 1_000_000 }),
          fc.nat().map((n) => `${n}.${n % 1000}`),
          fc.constant("0"),
          fc.constant("1e3"),
        ),
        reg_event_id: fc.constant("REG"),
      }),
    );

/** One rule broken on purpose. */
const breakOne = (event: Record<string, unknown>) =>
  fc.oneof(
    fc.constantFrom("account_id", "identity_type", "amount", "reg_event_id").map((f) => {
      const copy = { ...event };
      delete copy[f];
      return copy;
    }),
    fc.constantFrom("extra", "__proto__", "constructor", "prototype").map((k) => JSON.parse(`{${JSON.stringify(k)}:1,${JSON.stringify(event).slice(1)}`)),
    fc.integer({ min: 1, max: 1_000_000 }).map((n) => ({ ...event, amount: -n })),
    fc.constantFrom("PHONE", "evm_address", "", 7).map((t) => ({ ...event, identity_type: t })),
    fc.constantFrom("0x123", "not-an-address", "", "0".repeat(44)).map((a) => ({ ...event, account_id: a })),
    fc.constantFrom("00000000-0000-4000-8000-000000000000", "x", 5).map((r) => ({ ...event, reg_event_id: r === "x" ? "OTHER" : r })),
    fc.constantFrom("ten", "1e400", "0x10", "NaN", true, [], {}).map((a) => ({ ...event, amount: a })),
  );

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: validEvent().map((value) => ({ value, kind: "valid" as const })) },
  {
    weight: 4,
    arbitrary: validEvent()
      .chain(breakOne)
      .map((value) => ({ value, kind: "invalid" as const })),
  },
  { weight: 2, arbitrary: fc.jsonValue().map((value) => ({ value, kind: "random" as const })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 3000 }).map((value) => ({ value: { raw: value }, kind: "random" as const })) },
);

interface HeaderChoice {
  authorization: string;
  "content-type": string;
  "idempotency-key"?: string;
  "x-pointwise-source"?: string;
  "content-encoding"?: string;
  extra?: Record<string, string>;
}

/** Headers: each either a good value, a random one or absent; plus random extra headers. */
const headers: fc.Arbitrary<HeaderChoice> = fc.record(
  {
    authorization: fc.oneof({ weight: 6, arbitrary: fc.constant("MAIN") }, fc.constant("REVOKED"), fc.constant(`Bearer ${generateApiKey().key}`), printable),
    "content-type": fc.oneof(
      { weight: 6, arbitrary: fc.constant("application/json") },
      fc.constant("application/json; charset=UTF-8"),
      fc.constant("text/plain"),
      printable,
    ),
    "idempotency-key": fc.oneof({ weight: 3, arbitrary: fc.constant("UNIQUE") }, printable),
    "x-pointwise-source": fc.oneof({ weight: 3, arbitrary: fc.constant("indexer") }, printable),
    "content-encoding": fc.oneof({ weight: 6, arbitrary: fc.constant("identity") }, fc.constantFrom("gzip", "deflate", "br", "x-nope")),
    extra: fc.dictionary(fc.stringMatching(/^x-r-[a-z0-9-]{1,12}$/), printable, { maxKeys: 3 }),
  },
  { requiredKeys: ["authorization", "content-type"] },
);

function materialise(value: unknown): string {
  if (typeof value === "object" && value !== null && "raw" in value && Object.keys(value).length === 1) return String((value as { raw: string }).raw);
  return JSON.stringify(value).replaceAll('"REG"', JSON.stringify(h.main.regEventId)).replaceAll('"OTHER"', JSON.stringify(h.other.regEventId));
}

function headerValues(input: HeaderChoice): Record<string, string> {
  const out: Record<string, string> = { ...input.extra };
  for (const [name, value] of Object.entries(input)) {
    if (name === "extra" || value === undefined) continue;
    out[name] =
      value === "MAIN" ? `Bearer ${h.main.key}` : value === "REVOKED" ? `Bearer ${h.revokedKey}` : value === "UNIQUE" ? `prop-${uniqueKey++}` : String(value);
  }
  return out;
}

/** The request is fine apart from its body: the oracle for a valid or invalid body applies. */
function cleanHeaders(sent: Record<string, string>): boolean {
  return (
    sent.authorization === `Bearer ${h.main.key}` &&
    /^application\/json(; charset=UTF-8)?$/.test(sent["content-type"] ?? "") &&
    (sent["idempotency-key"] === undefined || sent["idempotency-key"].startsWith("prop-")) &&
    (sent["x-pointwise-source"] === undefined || sent["x-pointwise-source"] === "indexer") &&
    (sent["content-encoding"] === undefined || sent["content-encoding"] === "identity")
  );
}

function checkEnvelope(answer: Answer): void {
  expect(answer.status).toBe(200);
  expect(typeof answer.body).toBe("object");
  if (answer.body.data === null) {
    expect(Object.keys(answer.body).sort()).toEqual(["data", "errors"]);
    expect(answer.body.errors.length).toBeGreaterThan(0);
    for (const e of answer.body.errors) {
      expect(typeof e.message).toBe("string");
      expect(CODES.has(e.extensions.code)).toBe(true);
    }
  } else {
    expect(Object.keys(answer.body)).toEqual(["data"]);
  }
}

describe("random requests at the running endpoints", () => {
  it("POST /api/rest/earn-event: always 200, a documented code, and a success only for a valid body", async () => {
    await fc.assert(
      fc.asyncProperty(body, headers, async (b, hs) => {
        const sent = headerValues(hs);
        const answer = await h.request("POST", "/api/rest/earn-event", materialise(b.value), sent);
        checkEnvelope(answer);
        const ok = answer.body.data !== null;
        if (b.kind !== "valid") expect(ok).toBe(false);
        if (b.kind === "valid" && cleanHeaders(sent)) expect(answer.body).toEqual({ data: { event_id: expect.any(String), received_at: expect.any(String) } });
        if (ok) accepted.add(answer.body.data.event_id);
      }),
      { numRuns: 1500 },
    );
  }, 120_000);

  it("POST /api/rest/earn-events: always 200, one result per item, and ok only for an item built valid", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(body, { maxLength: 10 }), headers, fc.boolean(), async (items, hs, wrap) => {
        const sent = headerValues(hs);
        const texts = items.map((i) => materialise(i.value));
        const text = wrap ? `{"events":[${texts.join(",")}]}` : (texts[0] ?? "null");
        const answer = await h.request("POST", "/api/rest/earn-events", text, sent);
        checkEnvelope(answer);
        if (answer.body.data === null) return;
        expect(wrap).toBe(true);
        const results = answer.body.data.results as { ok: boolean; event_id?: string; errors?: { extensions: { code: string } }[] }[];
        // A random raw text spliced into the array can make no element ("") or several ("1,2"); then
        // the answer has one result per element of the array as sent, and items no longer line up.
        const events = (JSON.parse(text) as { events: unknown[] }).events;
        expect(results).toHaveLength(events.length);
        const oneEach = texts.every((t) => {
          try {
            return (JSON.parse(`[${t}]`) as unknown[]).length === 1;
          } catch {
            return false;
          }
        });
        if (oneEach) expect(results).toHaveLength(items.length);
        results.forEach((r, i) => {
          const kind = oneEach ? items[i]?.kind : undefined;
          if (oneEach && kind !== "valid") expect(r.ok).toBe(false);
          else if (kind === "valid" && cleanHeaders(sent)) expect(r.ok).toBe(true);
          if (r.ok) accepted.add(r.event_id as string);
          else for (const e of r.errors ?? []) expect(CODES.has(e.extensions.code)).toBe(true);
        });
      }),
      { numRuns: 600 },
    );
  }, 120_000);

  it("put nothing in the stream but the events the answers accepted, each once", async () => {
    const stored = await h.messages();
    expect(stored.length).toBe(accepted.size);
    for (const m of stored) expect(accepted.has(m.event_id)).toBe(true);
    expect(stored.length).toBeGreaterThan(100);
  }, 60_000);
});
