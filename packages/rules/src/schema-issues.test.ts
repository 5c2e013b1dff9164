// Every cross-field rule of a rule version, each broken on its own in an otherwise valid document, with the exact
// issues an admin sees: path and message, all of them, in order.
import { ValidationError } from "@pointwise/errors";
import { CAMPAIGN, SWAP, thrownBy } from "../test/fixtures";
import { parseRuleVersion, type RuleVersionInput, safeParseRuleVersion } from "./index";
import { issueText } from "./schema";

// biome-ignore lint/suspicious/noExplicitAny: each row reaches into the document wherever its rule lives
type Doc = any;

/** A rule version that uses every part the cross-field checks look at: two currencies, tiers, caps, milestones, multipliers, a referral. */
function valid(): RuleVersionInput {
  return {
    campaignId: CAMPAIGN,
    version: 1,
    primaryCurrency: "xp",
    currencies: {
      xp: {
        name: "Experience",
        tiers: [
          { key: "bronze", name: "Bronze", minLifetime: "0" },
          { key: "silver", name: "Silver", minLifetime: "100" },
        ],
        caps: [{ period: "day", limit: "50" }],
      },
      gems: { name: "Gems", decimals: 0 },
    },
    rules: [
      {
        id: "swap",
        regEventId: SWAP,
        currency: "xp",
        base: { kind: "perUnit", points: "1.5" },
        milestones: [{ id: "ten-swaps", metric: "count", level: "10", points: "5" }],
        multipliers: [
          { kind: "tier", factors: { silver: "1.5" } },
          { kind: "window", factor: "2", from: "2025-01-01T00:00:00Z", until: "2025-02-01T00:00:00Z" },
        ],
        activeFrom: "2025-01-01T00:00:00Z",
        activeUntil: "2025-12-31T00:00:00Z",
        schedule: [{ days: ["mon"] }],
        caps: [{ period: "week", limit: "100" }],
      },
    ],
    referral: { shares: { xp: "0.1" } },
  };
}

function issuesAfter(change: (d: Doc) => unknown): string[] {
  const doc: Doc = valid();
  change(doc);
  const result = safeParseRuleVersion(doc);
  return result.ok ? [] : result.issues.map(issueText);
}

const CASES: [string, (d: Doc) => unknown, string[]][] = [
  ["accepts the document as written", () => undefined, []],
  [
    "refuses a version without currencies, naming none as known",
    (d) => {
      d.currencies = {};
      d.rules = [];
      delete d.referral;
    },
    ["currencies must define at least one currency", "primaryCurrency must be one of the currencies ()"],
  ],
  [
    "lists every known currency for an unknown primary currency",
    (d) => (d.primaryCurrency = "gold"),
    ["primaryCurrency must be one of the currencies (xp, gems)"],
  ],
  [
    "refuses two caps of one period on a currency",
    (d) => d.currencies.xp.caps.push({ period: "day", limit: "60" }),
    ['currencies.xp.caps[1].period must be unique: period "day" is also used at index 0'],
  ],
  [
    "refuses two tiers with one key, and the tier multiplier then names the tiers there are",
    (d) => (d.currencies.xp.tiers[1].key = "bronze"),
    [
      'currencies.xp.tiers[1].key must be unique: tier key "bronze" is also used at index 0',
      "rules[0].multipliers[0].factors.silver must name a tier of currency xp (bronze, bronze)",
    ],
  ],
  [
    "refuses a tier whose minLifetime is below the one before",
    (d) => (d.currencies.xp.tiers[1].minLifetime = "0"),
    ["currencies.xp.tiers[1].minLifetime must be greater than the previous tier's minLifetime"],
  ],
  [
    "lists the currency's tiers for a tier multiplier naming another",
    (d) => (d.rules[0].multipliers[0].factors = { gold: "2" }),
    ["rules[0].multipliers[0].factors.gold must name a tier of currency xp (bronze, silver)"],
  ],
  [
    "refuses two milestones with one id",
    (d) => d.rules[0].milestones.push({ id: "ten-swaps", metric: "amount", level: "1000", points: "50" }),
    ['rules[0].milestones[1].id must be unique: milestone id "ten-swaps" is also used at index 0'],
  ],
  [
    "refuses two caps of one period on a rule",
    (d) => d.rules[0].caps.push({ period: "week", limit: "5" }),
    ['rules[0].caps[1].period must be unique: period "week" is also used at index 0'],
  ],
  ["accepts a rule without base when it has milestones", (d) => delete d.rules[0].base, []],
  [
    "refuses a rule without base whose milestones list is empty",
    (d) => {
      delete d.rules[0].base;
      d.rules[0].milestones = [];
    },
    ["rules[0].base must be set when the rule has no milestones"],
  ],
  ["refuses activeUntil equal to activeFrom", (d) => (d.rules[0].activeUntil = d.rules[0].activeFrom), ["rules[0].activeUntil must be later than activeFrom"]],
  ["accepts activeFrom without activeUntil", (d) => delete d.rules[0].activeUntil, []],
  [
    "refuses a window multiplier ending before it starts",
    (d) => (d.rules[0].multipliers[1].until = "2024-12-31T00:00:00Z"),
    ["rules[0].multipliers[1].until must be later than from"],
  ],
  [
    "refuses a window multiplier ending as it starts",
    (d) => (d.rules[0].multipliers[1].until = d.rules[0].multipliers[1].from),
    ["rules[0].multipliers[1].until must be later than from"],
  ],
  ["refuses a recurring window with neither days nor hours", (d) => (d.rules[0].schedule = [{}]), ["rules[0].schedule[0] must set days, hours or both"]],
  ["accepts a recurring window with hours only", (d) => (d.rules[0].schedule = [{ hours: { from: 22, to: 2 } }]), []],
  [
    "refuses a referral share in a currency the version does not define",
    (d) => (d.referral.shares = { gold: "0.1" }),
    ["referral.shares.gold must name one of the currencies (xp, gems)"],
  ],
  ["accepts a referral share of exactly 1", (d) => (d.referral.shares = { gems: "1" }), []],
  ["refuses a referral share above 1", (d) => (d.referral.shares = { gems: "1.000001" }), ["referral.shares.gems must be at most 1"]],
  ["writes a type error after the path and a colon", (d) => (d.version = "1"), ["version: Invalid input: expected number, received string"]],
];

describe("rule version cross-field checks", () => {
  it.each(CASES)("%s", (_name, change, expected) => {
    expect(issuesAfter(change)).toEqual(expected);
  });
});

describe("parseRuleVersion's error", () => {
  const thrown = (input: unknown) => thrownBy(() => parseRuleVersion(input), ValidationError);

  it("names a document that is not an object without a path", () => {
    expect(thrown("rules").message).toBe("Invalid rule version: Invalid input: expected object, received string");
    expect(thrown("rules").field).toBe("");
  });

  it("names the first issue, counts the rest and carries them all in its details", () => {
    const doc: Doc = valid();
    doc.primaryCurrency = "gold";
    doc.referral.shares = { gems: "2" };
    const err = thrown(doc);
    expect(err.message).toBe("Invalid rule version: primaryCurrency must be one of the currencies (xp, gems) (and 1 more)");
    expect(err.field).toBe("primaryCurrency");
    expect(err.details).toEqual({
      issues: [
        { path: "primaryCurrency", message: "must be one of the currencies (xp, gems)" },
        { path: "referral.shares.gems", message: "must be at most 1" },
      ],
    });
  });

  it("adds no count when there is one issue", () => {
    const doc: Doc = valid();
    doc.primaryCurrency = "gold";
    expect(thrown(doc).message).toBe("Invalid rule version: primaryCurrency must be one of the currencies (xp, gems)");
  });
});
