// Indexer event validation and decimal formatting; the zod-free validator agrees with the schemas.
import fc from "fast-check";
import { isDecimalString, unitsFromRaw } from "./decimal";
import { ACTION_KINDS, eventSchemas, invalidEventReason, NULL_ADDRESS } from "./events";

const U = "0x00000000000000000000000000000000000000aa";

describe("decimals", () => {
  it("converts base units to token units exactly", () => {
    expect(unitsFromRaw(1_500_000n, 6)).toBe("1.5");
    expect(unitsFromRaw(1n, 18)).toBe("0.000000000000000001");
    expect(unitsFromRaw(-123_000_000_000_000_000_000n, 18)).toBe("-123");
    expect(unitsFromRaw(0n, 18)).toBe("0");
    expect(unitsFromRaw(42n, 0)).toBe("42");
  });

  it("recognises plain decimal strings only", () => {
    expect(["1", "-0.5", "100.000"].every(isDecimalString)).toBe(true);
    expect(["1e5", ".5", "1.", "", "NaN", "0x10"].some(isDecimalString)).toBe(false);
  });
});

describe("event validation", () => {
  it("calls the zero address the null address, the address whose balance deltas the engine ignores", () => {
    expect(NULL_ADDRESS).toBe(`0x${"0".repeat(40)}`);
  });

  it("accepts well-formed events", () => {
    expect(invalidEventReason({ type: "balanceDelta", user: U, asset: U, amount: "-1.5", activity: "hold" })).toBeUndefined();
    expect(invalidEventReason({ type: "action", key: "k", activity: "claim", user: U, priceable: false })).toBeUndefined();
  });

  it("names the field and rule of an invalid event", () => {
    expect(invalidEventReason({ type: "action", key: "k", activity: "swap", user: U, priceable: true })).toBe(
      "action.amount a priceable action must carry amount.asset and amount.amount",
    );
    expect(invalidEventReason({ type: "balanceDelta", user: "0xABC", asset: U, amount: "1", activity: "hold" })).toBe(
      "balanceDelta.user must be a lowercase 0x-prefixed 20-byte address",
    );
    expect(invalidEventReason({ type: "balanceDelta", user: U, asset: U, amount: "1e3", activity: "hold" })).toBe(
      "balanceDelta.amount must be a decimal string",
    );
    expect(invalidEventReason({ type: "mint" })).toBe("type must be one of balanceDelta, measureDelta, positionUpdate, positionStatusChange, reprice, action");
  });

  it("accepts the action kinds swap, mint, bridge, claim and custom, and refuses any other kind", () => {
    const action = (activity: unknown) => ({ type: "action", key: "k", activity, user: U, priceable: false });
    expect(ACTION_KINDS).toEqual(["swap", "mint", "bridge", "claim", "custom"]);
    for (const kind of ACTION_KINDS) expect(invalidEventReason(action(kind))).toBeUndefined();
    for (const other of ["hold", "stake", "Swap", "", 1, undefined])
      expect(invalidEventReason(action(other))).toBe("action.activity must be one of swap, mint, bridge, claim, custom");
    // Balance deltas keep free activity names (hold, stake, lend, ...): the rule is about actions only.
    expect(invalidEventReason({ type: "balanceDelta", user: U, asset: U, amount: "1", activity: "stake" })).toBeUndefined();
  });
});

describe("event validation without zod", () => {
  // What the schemas alone say about an event; the fast path must never disagree with it.
  const schemaReason = (event: Record<string, unknown>): string | undefined => {
    const type = event.type as keyof typeof eventSchemas;
    const result = eventSchemas[type].safeParse(event);
    const first = result.success ? undefined : result.error.issues[0];
    return first === undefined ? undefined : `${type}.${first.path.join(".")} ${first.message}`;
  };
  const address = fc.oneof(
    fc.constant(U),
    fc.constant("0x00000000000000000000000000000000000000AA"),
    fc.constant("0xabc"),
    fc.stringMatching(/^0x[0-9a-f]{40}$/),
    fc.constant(undefined),
    fc.integer(),
  );
  const decimal = fc.oneof(
    fc.constant("-1.5"),
    fc.constant("1e3"),
    fc.constant(""),
    fc.stringMatching(/^-?\d{1,30}(\.\d{1,20})?$/),
    fc.double(),
    fc.constant(undefined),
  );
  const name = fc.oneof(fc.constant("hold"), fc.constantFrom(...ACTION_KINDS), fc.constant(""), fc.string(), fc.constant(null));
  const flag = fc.oneof(fc.boolean(), fc.constant("true"), fc.constant(undefined));
  const meta = fc.oneof(
    fc.constant(undefined),
    fc.dictionary(fc.string(), fc.string()),
    fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())),
    fc.constant([]),
    fc.constant(null),
  );
  const amount = fc.oneof(fc.constant(undefined), fc.record({ asset: address, amount: decimal }), fc.constant("1"), fc.constant(null));
  const event = fc.record(
    {
      type: fc.constantFrom(...(Object.keys(eventSchemas) as (keyof typeof eventSchemas)[])),
      user: address,
      asset: address,
      amount: fc.oneof(decimal, amount),
      activity: name,
      metric: name,
      key: name,
      active: flag,
      priceable: flag,
      meta,
    },
    // Any field may be absent as well as undefined or wrong.
    { requiredKeys: ["type"] },
  );

  it("accepts and rejects exactly what the schemas accept and reject, with the same reason (property)", () => {
    fc.assert(
      fc.property(event, (e) => {
        expect(invalidEventReason(e)).toBe(schemaReason(e));
      }),
      { numRuns: 1_500 },
    );
    // The generator must reach both sides, or the property says little: counted on a fixed sample as large as the
    // property's run, so the count does not depend on how many cases a run makes.
    const valid = fc.sample(event, { numRuns: 1_500, seed: 1 }).filter((e) => schemaReason(e) === undefined);
    expect(valid.length).toBeGreaterThan(15);
  });

  it("vouches for every well-formed event of each type itself, without asking zod", () => {
    const A = "0x00000000000000000000000000000000000000bb";
    const valid = [
      { type: "balanceDelta", user: U, asset: A, amount: "-1.5", activity: "hold" },
      { type: "measureDelta", asset: A, metric: "sharePrice", amount: "1.25" },
      { type: "positionUpdate", user: U, asset: A, activity: "lend" },
      { type: "positionStatusChange", user: U, asset: A, activity: "lend", active: false },
      { type: "reprice", asset: A },
      { type: "action", key: "k", activity: "claim", user: U, priceable: false },
      { type: "action", key: "k", activity: "swap", user: U, priceable: true, amount: { asset: A, amount: "2" }, meta: { pool: "p" } },
      { type: "action", key: "k", activity: "mint", user: U, priceable: false, amount: { asset: A, amount: "0" }, meta: {} },
    ] as const;
    const spies = Object.values(eventSchemas).map((schema) => jest.spyOn(schema, "safeParse"));
    try {
      for (const event of valid) expect(invalidEventReason(event)).toBeUndefined();
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("refuses, with the schemas' reason, inputs the fast path must not vouch for", () => {
    const A = "0x00000000000000000000000000000000000000bb";
    const TYPES = "type must be one of balanceDelta, measureDelta, positionUpdate, positionStatusChange, reprice, action";
    const ADDRESS = "must be a lowercase 0x-prefixed 20-byte address";
    const claim = { type: "action", key: "k", activity: "claim", user: U, priceable: false };
    const cases: [unknown, string][] = [
      // Text before or after an address.
      [{ type: "reprice", asset: `0${A}` }, `reprice.asset ${ADDRESS}`],
      [{ type: "reprice", asset: `${A}0` }, `reprice.asset ${ADDRESS}`],
      // An array whose only element is an address prints as that address.
      [{ type: "reprice", asset: [A] }, "reprice.asset Invalid input: expected string, received array"],
      [{ ...claim, activity: "teleport" }, "action.activity must be one of swap, mint, bridge, claim, custom"],
      [{ type: "positionUpdate", user: U, asset: A, activity: "" }, "positionUpdate.activity must not be empty"],
      [{ ...claim, amount: { asset: "0xabc", amount: "1" } }, `action.amount.asset ${ADDRESS}`],
      [{ ...claim, meta: { pool: 1 } }, "action.meta.pool Invalid input: expected string, received number"],
      [{ ...claim, activity: "swap", priceable: true }, "action.amount a priceable action must carry amount.asset and amount.amount"],
      // An array carrying an event's fields is not an event.
      [Object.assign([], { type: "reprice", asset: A }), "reprice. Invalid input: expected object, received array"],
      [null, TYPES],
      [42, TYPES],
      [{ type: ["reprice"], asset: A }, TYPES],
      [{ type: "toString" }, TYPES],
      // Values the fast path's type checks exist for: a number amount, a number flag, a function or a Map in place of an object.
      [{ type: "balanceDelta", user: U, asset: A, amount: 5, activity: "hold" }, "balanceDelta.amount Invalid input: expected string, received number"],
      [{ ...claim, priceable: 1, amount: { asset: A, amount: "1" } }, "action.priceable Invalid input: expected boolean, received number"],
      [{ ...claim, amount: Object.assign(() => {}, { asset: A, amount: "1" }) }, "action.amount Invalid input: expected object, received function"],
      [{ ...claim, meta: new Map([["pool", "p"]]) }, "action.meta Invalid input: expected record, received Map"],
      [{ ...claim, meta: null }, "action.meta Invalid input: expected record, received null"],
    ];
    for (const [event, reason] of cases) {
      expect([event, invalidEventReason(event)]).toEqual([event, reason]);
      if (reason !== TYPES) expect(reason).toBe(schemaReason(event as Record<string, unknown>));
    }
  });

  it("names a symbol key of meta in the reason instead of throwing", () => {
    const claim = { type: "action", key: "k", activity: "claim", user: U, priceable: false };
    expect(invalidEventReason({ ...claim, meta: { [Symbol("pool")]: "p" } })).toBe("action.meta.Symbol(pool) Invalid key in record");
  });

  it("accepts a well-formed action whose meta has no prototype, which only the schema vouches for", () => {
    const A = "0x00000000000000000000000000000000000000bb";
    const meta = Object.assign(Object.create(null) as Record<string, string>, { pool: "p" });
    const claim = { type: "action", key: "k", activity: "claim", user: U, meta };
    expect(invalidEventReason({ ...claim, priceable: false })).toBeUndefined();
    expect(invalidEventReason({ ...claim, priceable: true, amount: { asset: A, amount: "2" } })).toBeUndefined();
    expect(invalidEventReason({ ...claim, priceable: true })).toBe("action.amount a priceable action must carry amount.asset and amount.amount");
  });

  it("defers unusual objects to the schemas", () => {
    const meta = Object.create({ inherited: 1 }) as Record<string, string>;
    meta.a = "b";
    const action = { type: "action", key: "k", activity: "claim", user: U, priceable: false, meta };
    expect(invalidEventReason(action)).toBe(schemaReason(action));
    expect(invalidEventReason([])).toBe("type must be one of balanceDelta, measureDelta, positionUpdate, positionStatusChange, reprice, action");
  });
});
