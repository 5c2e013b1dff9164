// validateEarnEvent: normalised events, required and unknown fields, bad amounts and ids, never throws.
import fc from "fast-check";
import { EARN_EVENT_FIELDS, EARN_EVENT_OPTIONAL_FIELDS, parseOccurredAt, validateEarnEvent } from "./earn-event";
import { IDENTITY_TYPES } from "./identity";

const REG = "5F33E576-104E-4131-AFD3-38E90CFFB252";
const base = { account_id: "0x52908400098527886E0F7030069857D2E4169EE7", identity_type: "EVM_ADDRESS", amount: "10.50", reg_event_id: REG };

const codes = (body: unknown) => {
  const result = validateEarnEvent(body);
  return result.ok ? [] : result.problems.map((p) => p.code);
};

describe("validateEarnEvent", () => {
  it("returns the normalised event: lowercase address and UUID, canonical amount", () => {
    expect(validateEarnEvent(base)).toEqual({
      ok: true,
      event: { account_id: "0x52908400098527886e0f7030069857d2e4169ee7", identity_type: "EVM_ADDRESS", amount: "10.5", reg_event_id: REG.toLowerCase() },
    });
  });

  it.each([
    ["EVM_ADDRESS", "0xde709f2102306220921060314715629080e2fb77", "0xde709f2102306220921060314715629080e2fb77"],
    ["SOLANA_ADDRESS", "11111111111111111111111111111111", "11111111111111111111111111111111"],
    ["BTC_ADDRESS", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
    ["EMAIL", "Someone@Example.COM", "someone@example.com"],
    ["DISCORD_PROVIDER_ID", "80351110224678912", "80351110224678912"],
    ["X_PROVIDER_ID", "18446744073709551615", "18446744073709551615"],
    ["GITHUB_PROVIDER_ID", "1", "1"],
  ])("accepts a valid %s and stores it normalised", (identity_type, account_id, stored) => {
    const result = validateEarnEvent({ ...base, identity_type, account_id });
    expect(result.ok && result.event.account_id).toBe(stored);
  });

  it("requires all four fields (absent or null), naming each", () => {
    expect(validateEarnEvent({})).toEqual({
      ok: false,
      problems: EARN_EVENT_FIELDS.map((field) => ({ message: `${field} is required`, code: "missing-field", field })),
    });
    expect(codes({ ...base, amount: null })).toEqual(["missing-field"]);
  });

  it.each(["__proto__", "constructor", "prototype", "toString", "points", "Account_Id"])("refuses the key %j as an unknown field", (key) => {
    const body = JSON.parse(`{${JSON.stringify(key)}: 1, ${JSON.stringify(base).slice(1)}`);
    const result = validateEarnEvent(body);
    expect(result).toEqual({ ok: false, problems: [{ message: `unknown field ${JSON.stringify(key)}`, code: "unknown-field", field: key }] });
  });

  it("reports ten unknown fields by name and sums up the rest, shortening long names", () => {
    const body: Record<string, unknown> = { ...base };
    for (let i = 0; i < 25; i++) body[`extra${i}`] = i;
    body["k".repeat(500)] = 1;
    const result = validateEarnEvent(body);
    if (result.ok) throw new Error("must fail");
    expect(result.problems).toHaveLength(11);
    expect(result.problems[10]).toEqual({ message: "16 more unknown fields", code: "unknown-field" });
    const long = validateEarnEvent({ ...base, ["k".repeat(500)]: 1 });
    expect(!long.ok && long.problems[0]?.message).toBe(`unknown field "${"k".repeat(64)}..."`);
  });

  it("answers an unknown identity_type exactly as the interface shows", () => {
    expect(validateEarnEvent({ ...base, identity_type: "PHONE" })).toEqual({
      ok: false,
      problems: [{ message: "invalid identity_type", code: "validation-failed", field: "identity_type" }],
    });
  });

  it("names the identity type when account_id has the wrong JSON type", () => {
    const result = validateEarnEvent({ ...base, identity_type: "DISCORD_PROVIDER_ID", account_id: 80351110224678912 });
    expect(!result.ok && result.problems[0]?.message).toBe(
      "account_id is not a valid DISCORD_PROVIDER_ID: must be a string, got a number (a number would lose precision)",
    );
    expect(codes({ ...base, identity_type: "NOPE", account_id: 1 })).toEqual(["validation-failed", "invalid-account-id"]);
  });

  it("refuses the EVM zero address with invalid-account-id: an earn event brings points in, and nobody holds that address", () => {
    expect(validateEarnEvent({ ...base, account_id: "0x0000000000000000000000000000000000000000" })).toEqual({
      ok: false,
      problems: [
        {
          message: "account_id is not a valid EVM_ADDRESS: must not be the zero address, which no wallet holds",
          code: "invalid-account-id",
          field: "account_id",
        },
      ],
    });
  });

  it("refuses a negative amount with negative-amount and other bad amounts with invalid-amount", () => {
    expect(codes({ ...base, amount: -0.01 })).toEqual(["negative-amount"]);
    expect(codes({ ...base, amount: "1,5" })).toEqual(["invalid-amount"]);
    expect(codes({ ...base, amount: [] })).toEqual(["invalid-amount"]);
  });

  it("refuses a reg_event_id that is not a UUID", () => {
    expect(codes({ ...base, reg_event_id: "5f33e576104e4131afd338e90cffb252" })).toEqual(["invalid-reg-event-id"]);
  });

  it("accepts an occurred_at in UTC and returns it with milliseconds; null is the same as absent", () => {
    const at = (occurred_at: unknown) => {
      const result = validateEarnEvent({ ...base, occurred_at });
      return result.ok ? result.event.occurred_at : result.problems.map((p) => `${p.code}: ${p.message}`);
    };
    expect(at("2026-11-20T10:00:00Z")).toBe("2026-11-20T10:00:00.000Z");
    expect(at("2026-11-20T10:00:00.5Z")).toBe("2026-11-20T10:00:00.500Z");
    expect(at("2024-02-29T23:59:59.999Z")).toBe("2024-02-29T23:59:59.999Z");
    expect(at(null)).toBeUndefined();
    expect(validateEarnEvent(base)).toMatchObject({ ok: true, event: expect.not.objectContaining({ occurred_at: expect.anything() }) });
  });

  it.each([
    ["a lowercase z", "2026-11-30T10:00:00z", "2026-11-30T10:00:00.000Z"],
    ["a lowercase t", "2026-11-30t10:00:00Z", "2026-11-30T10:00:00.000Z"],
    ["both lowercase, with milliseconds", "2026-11-30t10:00:00.25z", "2026-11-30T10:00:00.250Z"],
    ["both lowercase on a leap day", "2024-02-29t23:59:59.999z", "2024-02-29T23:59:59.999Z"],
  ])("accepts an occurred_at with %s (RFC 3339 section 5.6) and returns it in the canonical uppercase form", (_what, occurred_at, canonical) => {
    expect(validateEarnEvent({ ...base, occurred_at })).toMatchObject({ ok: true, event: { occurred_at: canonical } });
    expect(parseOccurredAt(occurred_at)).toBe(canonical);
  });

  it.each([
    ["an offset other than Z", "2026-11-20T10:00:00+01:00"],
    ["+00:00 instead of Z", "2026-11-20T10:00:00+00:00"],
    ["no zone", "2026-11-20T10:00:00"],
    ["a date only", "2026-11-20"],
    ["microseconds", "2026-11-20T10:00:00.000001Z"],
    ["a day that does not exist", "2026-02-30T10:00:00Z"],
    ["a leap second", "2026-12-31T23:59:60Z"],
    ["a number (Unix time)", 1_763_632_800],
    ["a space instead of T", "2026-11-20 10:00:00Z"],
    ["a lowercase t with an offset", "2026-11-20t10:00:00+01:00"],
    ["a letter other than T or Z", "2026-11-20x10:00:00y"],
    ["a lowercase day that does not exist", "2026-02-30t10:00:00z"],
    ["text before it", "on 2026-11-20T10:00:00Z"],
    ["text after it", "2026-11-20T10:00:00Z (UTC)"],
  ])("refuses an occurred_at with %s as invalid-occurred-at", (_what, occurred_at) => {
    expect(validateEarnEvent({ ...base, occurred_at })).toEqual({
      ok: false,
      problems: [
        {
          message: "occurred_at must be an RFC 3339 time in UTC with at most millisecond precision, e.g. 2026-11-20T10:00:00Z",
          code: "invalid-occurred-at",
          field: "occurred_at",
        },
      ],
    });
  });

  it("refuses an occurred_at in the year 0000, which PostgreSQL's calendar does not have, and takes the first day of AD 1", () => {
    expect(validateEarnEvent({ ...base, occurred_at: "0000-01-01T00:00:00Z" })).toEqual({
      ok: false,
      problems: [
        { message: "occurred_at must not be in the year 0000, which PostgreSQL's calendar does not have", code: "invalid-occurred-at", field: "occurred_at" },
      ],
    });
    expect(parseOccurredAt("0001-01-01T00:00:00Z")).toBe("0001-01-01T00:00:00.000Z");
  });

  it("keeps an idempotency_key as sent and refuses an empty, too long or non-ASCII one", () => {
    const key = "indexer-1/window/0xabc/1700000000";
    expect(validateEarnEvent({ ...base, idempotency_key: key })).toMatchObject({ ok: true, event: { idempotency_key: key } });
    expect(validateEarnEvent({ ...base, idempotency_key: "k".repeat(255) }).ok).toBe(true);
    for (const bad of ["", "k".repeat(256), "caf\u00e9", "tab\there", 42]) {
      expect(validateEarnEvent({ ...base, idempotency_key: bad })).toEqual({
        ok: false,
        problems: [
          { message: "idempotency_key must be a string of 1 to 255 printable ASCII characters", code: "invalid-idempotency-key", field: "idempotency_key" },
        ],
      });
    }
  });

  it("lists every problem: a missing field does not hide the problems of the fields present", () => {
    const problems = (body: unknown) => {
      const result = validateEarnEvent(body);
      return result.ok ? [] : result.problems;
    };
    // The audit's body: reg_event_id missing and a negative amount.
    expect(problems({ account_id: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", identity_type: "EVM_ADDRESS", amount: "-1" })).toEqual([
      { message: "reg_event_id is required", code: "missing-field", field: "reg_event_id" },
      { message: "amount must not be negative", code: "negative-amount", field: "amount" },
    ]);
    // Unknown keys first, then the missing fields in the spec's order, then the bad values in the order of the checks.
    expect(problems({ extra: 1, account_id: "0x1234", identity_type: "EVM_ADDRESS", occurred_at: "2026-11-20T10:00:00+01:00", idempotency_key: "" })).toEqual([
      { message: 'unknown field "extra"', code: "unknown-field", field: "extra" },
      { message: "amount is required", code: "missing-field", field: "amount" },
      { message: "reg_event_id is required", code: "missing-field", field: "reg_event_id" },
      { message: expect.stringMatching(/^account_id is not a valid EVM_ADDRESS/), code: "invalid-account-id", field: "account_id" },
      {
        message: "occurred_at must be an RFC 3339 time in UTC with at most millisecond precision, e.g. 2026-11-20T10:00:00Z",
        code: "invalid-occurred-at",
        field: "occurred_at",
      },
      { message: "idempotency_key must be a string of 1 to 255 printable ASCII characters", code: "invalid-idempotency-key", field: "idempotency_key" },
    ]);
    expect(codes({ account_id: null, identity_type: "EVM_ADDRESS", amount: "x", reg_event_id: "y" })).toEqual([
      "missing-field",
      "invalid-amount",
      "invalid-reg-event-id",
    ]);
  });

  it("checks account_id against identity_type only when identity_type is valid, and only that it is a string otherwise", () => {
    const { identity_type: _type, ...noType } = base;
    const { account_id: _account, ...noAccount } = base;
    const required = (field: string) => ({ message: `${field} is required`, code: "missing-field", field });
    const problems = (body: unknown) => {
      const result = validateEarnEvent(body);
      return result.ok ? [] : result.problems;
    };
    // identity_type missing: an account_id string cannot be judged; one of another JSON type is wrong whatever the type.
    expect(problems({ ...noType, account_id: "not-an-address" })).toEqual([required("identity_type")]);
    expect(problems({ ...noType, account_id: 1 })).toEqual([
      required("identity_type"),
      { message: "account_id must be a string", code: "invalid-account-id", field: "account_id" },
    ]);
    // identity_type invalid: the same, with its own problem.
    expect(problems({ ...base, identity_type: "PHONE", account_id: "not-an-address" })).toEqual([
      { message: "invalid identity_type", code: "validation-failed", field: "identity_type" },
    ]);
    // account_id missing: identity_type is still checked, and nothing is said about an account_id that is not there.
    expect(problems(noAccount)).toEqual([required("account_id")]);
    expect(problems({ ...noAccount, identity_type: "PHONE" })).toEqual([
      required("account_id"),
      { message: "invalid identity_type", code: "validation-failed", field: "identity_type" },
    ]);
    // Both missing: two missing-field problems only.
    const { account_id: _a, identity_type: _t, ...neither } = base;
    expect(problems(neither)).toEqual([required("account_id"), required("identity_type")]);
  });

  it("removing a field adds its missing-field problem and keeps every problem of the other fields (property)", () => {
    const value = fc.oneof(fc.jsonValue(), fc.constant("2026-11-20t10:00:00z"), fc.constant("-1"), fc.constant(REG));
    const key = (p: { code: string; field?: string; message: string }) => JSON.stringify([p.field, p.code, p.message]);
    fc.assert(
      fc.property(
        fc.record(
          {
            account_id: fc.oneof(fc.constant(base.account_id), fc.string(), value),
            identity_type: fc.oneof(fc.constantFrom(...IDENTITY_TYPES), value),
            amount: fc.oneof(fc.constant("10.5"), value),
            reg_event_id: fc.oneof(fc.constant(REG), value),
            occurred_at: value,
            idempotency_key: fc.oneof(fc.constant("k"), value),
          },
          { requiredKeys: [] },
        ),
        // Removing identity_type changes how account_id is judged (above); every other field stands alone.
        fc.constantFrom("account_id", "amount", "reg_event_id", "occurred_at", "idempotency_key"),
        (body, field) => {
          const { [field]: _removed, ...without } = body as Record<string, unknown>;
          const before = validateEarnEvent(body);
          const after = validateEarnEvent(without);
          const kept = (before.ok ? [] : before.problems).filter((p) => p.field !== field).map(key);
          const required = (EARN_EVENT_FIELDS as readonly string[]).includes(field)
            ? [key({ message: `${field} is required`, code: "missing-field", field })]
            : [];
          expect((after.ok ? [] : after.problems).map(key).sort()).toEqual([...kept, ...required].sort());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("refuses anything that is not a JSON object", () => {
    for (const body of [null, [], "x", 1, true]) expect(codes(body)).toEqual(["invalid-body"]);
  });

  it("accepts no body with a key outside the four fields and the two optional ones (property)", () => {
    const known: readonly string[] = [...EARN_EVENT_FIELDS, ...EARN_EVENT_OPTIONAL_FIELDS];
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), (extra) => {
        const keys = Object.keys(extra).filter((k) => !known.includes(k));
        fc.pre(keys.length > 0);
        return validateEarnEvent({ ...base, ...extra }).ok === false;
      }),
    );
  });

  it("never throws and only ever returns an identity type from the list (property)", () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            account_id: fc.oneof(fc.string(), fc.jsonValue()),
            identity_type: fc.oneof(fc.constantFrom(...IDENTITY_TYPES), fc.string()),
            amount: fc.jsonValue(),
            reg_event_id: fc.oneof(fc.uuid(), fc.string()),
          },
          { requiredKeys: [] },
        ),
        (body) => {
          const result = validateEarnEvent(body);
          if (result.ok) expect(IDENTITY_TYPES).toContain(result.event.identity_type);
          else expect(result.problems.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("states each refusal in full: message, code and the field it names", () => {
    const problems = (body: unknown) => {
      const result = validateEarnEvent(body);
      return result.ok ? [] : result.problems;
    };
    expect(problems([])).toEqual([{ message: "body must be a JSON object", code: "invalid-body" }]);
    expect(problems({ ...base, identity_type: "NOPE", account_id: 1 })).toEqual([
      { message: "invalid identity_type", code: "validation-failed", field: "identity_type" },
      { message: "account_id must be a string", code: "invalid-account-id", field: "account_id" },
    ]);
    expect(problems({ ...base, account_id: "0x1234" })).toEqual([
      { message: expect.stringMatching(/^account_id is not a valid EVM_ADDRESS/), code: "invalid-account-id", field: "account_id" },
    ]);
    expect(problems({ ...base, amount: "1,5" })).toEqual([{ message: expect.stringMatching(/^amount /), code: "invalid-amount", field: "amount" }]);
    expect(problems({ ...base, reg_event_id: "not-a-uuid" })).toEqual([
      { message: "reg_event_id must be a UUID", code: "invalid-reg-event-id", field: "reg_event_id" },
    ]);
    expect(problems({ ...base, occurred_at: 1 })).toEqual([
      {
        message: "occurred_at must be an RFC 3339 time in UTC with at most millisecond precision, e.g. 2026-11-20T10:00:00Z",
        code: "invalid-occurred-at",
        field: "occurred_at",
      },
    ]);
  });

  it("refuses a reg_event_id that is a UUID inside an array, not a string", () => {
    expect(codes({ ...base, reg_event_id: [REG] })).toEqual(["invalid-reg-event-id"]);
  });

  it("refuses an occurred_at that is not a string primitive, even a String object holding a valid time", () => {
    expect(() => parseOccurredAt(new String("2026-11-20T10:00:00Z"))).toThrow(expect.objectContaining({ code: "invalid-occurred-at", field: "occurred_at" }));
    expect(parseOccurredAt("2026-11-20T10:00:00Z")).toBe("2026-11-20T10:00:00.000Z");
  });

  it("echoes an unknown key of exactly 64 characters in full, and one of 65 shortened", () => {
    const message = (key: string) => {
      const result = validateEarnEvent({ ...base, [key]: 1 });
      return result.ok ? undefined : result.problems[0]?.message;
    };
    expect(message("k".repeat(64))).toBe(`unknown field "${"k".repeat(64)}"`);
    expect(message("k".repeat(65))).toBe(`unknown field "${"k".repeat(64)}..."`);
  });

  it("names exactly ten unknown fields without a summary line", () => {
    const body: Record<string, unknown> = { ...base };
    for (let i = 0; i < 10; i++) body[`extra${i}`] = i;
    const result = validateEarnEvent(body);
    expect(!result.ok && result.problems.map((p) => p.message)).toEqual(Array.from({ length: 10 }, (_, i) => `unknown field "extra${i}"`));
  });

  it("counts a field present with the value undefined as absent", () => {
    expect(validateEarnEvent({ ...base, amount: undefined })).toEqual({
      ok: false,
      problems: [{ message: "amount is required", code: "missing-field", field: "amount" }],
    });
  });

  it("treats a null idempotency_key as absent and leaves absent optional fields out of the event", () => {
    const result = validateEarnEvent({ ...base, idempotency_key: null, occurred_at: null });
    expect(result.ok && Object.keys(result.event).sort()).toEqual(["account_id", "amount", "identity_type", "reg_event_id"]);
    const keyed = validateEarnEvent({ ...base, idempotency_key: "order-7" });
    expect(keyed.ok && keyed.event.idempotency_key).toBe("order-7");
    expect(keyed.ok && Object.hasOwn(keyed.event, "occurred_at")).toBe(false);
  });
});
