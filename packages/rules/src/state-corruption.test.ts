// The stored-state fast check against the schema on damaged states: every value of a stored state replaced, removed or
// joined by an extra key, in both formats. Whatever the fast check accepts, the schema must accept with the same copy;
// whatever the schema refuses, parseUserState must refuse with the schema's error.
import { ValidationError } from "@pointwise/errors";
import { viaSchema } from "../test/via-schema";
import { parseUserState } from "./index";
import { fastUserState } from "./state";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const FORMAT_2 = {
  format: 2,
  ruleVersion: 3,
  lastSeq: "42",
  currencies: { xp: { lifetime: "45.5", tier: "silver" }, gems: { lifetime: "0", tier: null } },
  rules: {
    swap: { count: "3", amount: "35.25", lastAt: "2025-03-05T09:00:00.000Z", milestones: ["first", "tenth"] },
    login: {
      count: "2",
      amount: "2",
      lastAt: null,
      milestones: [],
      spans: [
        [-5, 0],
        [1741165200000, 1741168800000],
      ],
    },
  },
  caps: { "rule:swap:day": { "2025-03-05": "15", "2025-03-06": "0.5" }, "currency:xp:campaign": {} },
};

const FORMAT_1 = {
  format: 1,
  ruleVersion: 1,
  lastSeq: null,
  currencies: { xp: { lifetime: "45", tier: null } },
  rules: { swap: { count: "3", amount: "35", lastAt: "2025-03-05T09:00:00.000Z", milestones: ["first"] } },
  caps: { "rule:swap:day": { period: "2025-03-05", used: "15" } },
};

/** Values a damaged store could hold in place of any field: other types, bad decimals and seqs, limits of a Date. */
const REPLACEMENTS: Json[] = [
  null,
  true,
  0,
  1,
  2,
  -1,
  1.5,
  8.64e15,
  -8.64e15,
  8.64e15 + 2,
  -8.64e15 - 2,
  Number.MAX_SAFE_INTEGER + 1,
  "",
  "1",
  "-1",
  "1.",
  "1e5",
  "x",
  [],
  ["a"],
  [1],
  [[1, 2]],
  [[2, 1]],
  [[1, 2, 3]],
  [["1", 2]],
  {},
  { a: "1" },
  { a: { b: "1" } },
  { count: "1", amount: "1", lastAt: null, milestones: [] },
  { lifetime: "1", tier: null },
  { period: "2025-01-01", used: "1" },
];

/** Values of an added key: the shapes of a record's entries (currency, rule, cap in both formats) and empty ones. */
const EXTRA_VALUES: Json[] = [
  [],
  {},
  { lifetime: "1", tier: null },
  { count: "1", amount: "1", lastAt: null, milestones: [] },
  { "2025-01-01": "1" },
  { period: "2025-01-01", used: "1" },
  "1",
];

/**
 * A deep copy made in the test's own realm (structuredClone's objects have another realm's prototype under jest, which
 * the fast check would send to the schema every time).
 */
function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Every path to a value of `doc`, parents before children. */
function paths(doc: Json, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = at.length > 0 ? [at] : [];
  const children: [string | number, Json][] = Array.isArray(doc)
    ? doc.map((v, i) => [i, v])
    : doc !== null && typeof doc === "object"
      ? Object.entries(doc)
      : [];
  for (const [k, v] of children) out.push(...paths(v, [...at, k]));
  return out;
}

/** The value at `path` in `doc`. */
function valueAt(doc: Json, path: readonly (string | number)[]): Json {
  return path.reduce<Json>((o, k) => (o as Record<string | number, Json>)[k] as Json, doc);
}

/** A deep copy of `doc` with `change` applied to the parent of `path`. */
function damaged(doc: Json, path: (string | number)[], change: (parent: Record<string | number, Json>, key: string | number) => void): Json {
  const copy = clone(doc);
  change(valueAt(copy, path.slice(0, -1)) as Record<string | number, Json>, path[path.length - 1] as string | number);
  return copy;
}

/** True when every object in `value` is a plain object or array of this realm: no stored key has become a prototype. */
function plain(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype) return false;
  return Object.values(value).every(plain);
}

/**
 * The copy parseUserState returns, marked when it is not plain data, or its error. zod names a plain object's type
 * "Object" and a prototype-less one's "object".
 */
function outcome(input: unknown): string {
  try {
    const copy = parseUserState(input);
    return `${plain(copy) ? "" : "not plain: "}${JSON.stringify(copy)}`;
  } catch (err) {
    if (err instanceof ValidationError) return `${err.code} ${err.field}: ${err.message.replace("received Object", "received object")}`;
    throw err;
  }
}

function damagedStates(doc: Json): { name: string; input: Json }[] {
  const out: { name: string; input: Json }[] = [];
  for (const path of paths(doc)) {
    const where = path.join(".");
    for (const value of REPLACEMENTS) {
      out.push({ name: `${where} = ${JSON.stringify(value)}`, input: damaged(doc, path, (p, k) => (p[k] = clone(value))) });
    }
    out.push({ name: `${where} removed`, input: damaged(doc, path, (p, k) => (Array.isArray(p) ? p.splice(k as number, 1) : delete p[k])) });
  }
  for (const path of [[], ...paths(doc)]) {
    const holder = valueAt(doc, path);
    if (holder === null || typeof holder !== "object" || Array.isArray(holder)) continue;
    for (const key of ["extra", "spans", "__proto__"]) {
      // An own "__proto__" key, as JSON.parse makes one, holding a value that would pass in a record's place.
      for (const value of EXTRA_VALUES) {
        const input = clone(doc);
        Object.defineProperty(valueAt(input, path) as Record<string, Json>, key, { value: clone(value), enumerable: true, configurable: true, writable: true });
        out.push({ name: `${path.join(".") || "(root)"} with an extra key ${key} = ${JSON.stringify(value)}`, input });
      }
    }
  }
  return out;
}

describe.each([
  ["format 2", FORMAT_2],
  ["format 1", FORMAT_1],
])("a damaged %s state", (_format, doc) => {
  const states = damagedStates(doc as Json);

  it("the fast check accepts the undamaged state, copied as every damaged one is, with the schema's copy", () => {
    expect(JSON.stringify(fastUserState(clone(doc)))).toBe(outcome(viaSchema(doc)));
  });

  it("is read exactly as the schema reads it, for every damage", () => {
    const differ = states.filter(({ input }) => outcome(input) !== outcome(viaSchema(input))).map((s) => s.name);
    expect(differ).toEqual([]);
  });

  it("is accepted by the fast check whenever the schema accepts it, unless it has an own __proto__ key", () => {
    const deferred = states
      .filter(({ name, input }) => !name.includes("__proto__") && !outcome(viaSchema(input)).startsWith("state-invalid") && fastUserState(input) === undefined)
      .map((s) => s.name);
    expect(deferred).toEqual([]);
  });

  it("is refused by the schema for most damages, so the comparison above is not vacuous", () => {
    const refused = states.filter(({ input }) => outcome(viaSchema(input)).startsWith("state-invalid"));
    expect(refused.length).toBeGreaterThan(states.length / 2);
  });
});

it("a state with a symbol key, a class instance or an array subclass goes to the schema, which decides", () => {
  const withSymbol = { ...FORMAT_2, [Symbol("x")]: 1 };
  expect(fastUserState(withSymbol)).toBeUndefined();
  expect(outcome(withSymbol)).toBe(outcome(viaSchema(FORMAT_2)));
  class Stored {}
  const instance = Object.assign(new Stored(), FORMAT_2);
  expect(fastUserState(instance)).toBeUndefined();
  class List<T> extends Array<T> {}
  const sub = clone(FORMAT_2);
  (sub.rules.swap as { milestones: unknown }).milestones = List.from(["first"]);
  expect(fastUserState(sub)).toBeUndefined();
  const spanSub = clone(FORMAT_2);
  (spanSub.rules.login as { spans: unknown }).spans = List.from([List.from([1, 2])]);
  expect(fastUserState(spanSub)).toBeUndefined();
  expect(outcome(spanSub)).toBe(outcome(viaSchema(spanSub)));
});
