// Checking a rule document against its campaign: schema problems, event types and currencies, with paths.
import { checkRuleDocument, issueSentence, type RuleContext } from "./rule-document";

const TYPE = "6f1c2a4e-8d3b-4c1a-9e7f-2b5d8a9c0e11";
const RETIRED = "0b7e4d21-53a9-4f6c-8a10-7c3e2f9d4b22";
const ctx: RuleContext = {
  campaignId: "abcd-2026",
  version: 4,
  currencies: { xp: "Experience", gems: "Gems" },
  primaryCurrency: "xp",
  eventTypes: [
    { id: TYPE, name: "swap", retired: false },
    { id: RETIRED, name: "old", retired: true },
  ],
  startsAt: null,
  endsAt: null,
  now: new Date("2026-11-30T12:00:00Z"),
};
const doc = (rules: unknown[], extra: Record<string, unknown> = {}) => ({ primaryCurrency: "xp", currencies: { xp: { name: "XP" } }, rules, ...extra });
const rule = (regEventId: string) => ({ id: "r", regEventId, currency: "xp", base: { kind: "fixed", points: "1" } });

describe("checkRuleDocument", () => {
  it("assigns the campaign and version whatever the document says", () => {
    const checked = checkRuleDocument({ ...doc([rule(TYPE.toUpperCase())]), campaignId: "zzzz-zzzz", version: 99 }, ctx);
    expect(checked.ok && [checked.document.campaignId, checked.document.version]).toEqual(["abcd-2026", 4]);
  });

  it("refuses a non-object document", () => {
    expect(checkRuleDocument("rules", ctx)).toEqual({ ok: false, issues: [{ path: "", message: "must be a JSON object" }] });
    expect(checkRuleDocument(null, ctx).ok).toBe(false);
  });

  it("reports the engine's schema problems with their paths", () => {
    const checked = checkRuleDocument(doc([{ ...rule(TYPE), base: { kind: "fixed", points: "0" } }]), ctx);
    expect(checked).toEqual({ ok: false, issues: [{ path: "rules[0].base.points", message: "must be greater than 0" }] });
  });

  it("refuses a __proto__ key anywhere, which a record would otherwise drop without a word", () => {
    const input = JSON.parse(
      `{"primaryCurrency":"xp","currencies":{"xp":{"name":"XP"}},"rules":[{"id":"r","regEventId":"${TYPE}","currency":"xp","base":{"kind":"fixed","points":"1"}}],"multipliers":[{"kind":"identityType","factors":{"__proto__":"2"}}]}`,
    );
    const checked = checkRuleDocument(input, ctx);
    expect(checked.ok ? [] : checked.issues).toContainEqual({ path: "multipliers[0].factors.__proto__", message: "is not an allowed key" });
  });

  it("reports the campaign's problems beside the schema's, in one answer", () => {
    // The audit's document: a zero base, a currency the campaign lacks, an event type it never registered.
    const checked = checkRuleDocument(
      doc([{ ...rule("00000000-0000-4000-8000-000000000000"), base: { kind: "fixed", points: "0" } }, null], {
        currencies: { xp: { name: "XP" }, gold: { name: "Gold" } },
      }),
      ctx,
    );
    expect(checked.ok ? [] : checked.issues).toEqual([
      { path: "rules[0].base.points", message: "must be greater than 0" },
      // A rule of another shape is the schema's alone to refuse.
      { path: "rules[1]", message: "Invalid input: expected object, received null" },
      { path: "currencies.gold", message: "must be a currency of the campaign (xp, gems)" },
      { path: "rules[0].regEventId", message: "must be the reg_event_id of an event type registered in this campaign" },
    ]);
  });

  it("reports every campaign problem at once: unknown and retired event types, foreign currencies, another primary currency", () => {
    const checked = checkRuleDocument(
      doc(
        [rule("00000000-0000-4000-8000-000000000000"), rule(RETIRED)].map((r, i) => ({ ...r, id: `r${i}` })),
        {
          primaryCurrency: "gold",
          currencies: { gold: { name: "Gold" }, xp: { name: "XP" } },
        },
      ),
      ctx,
    );
    expect(checked.ok ? [] : checked.issues).toEqual([
      { path: "currencies.gold", message: "must be a currency of the campaign (xp, gems)" },
      { path: "primaryCurrency", message: "must be the campaign's primary currency (xp)" },
      { path: "rules[0].regEventId", message: "must be the reg_event_id of an event type registered in this campaign" },
      { path: "rules[1].regEventId", message: "must not name a retired event type (old)" },
    ]);
  });
});

describe("issueSentence", () => {
  it("puts the document path in front of the rule", () => {
    expect(issueSentence({ path: "rules[0].id", message: "must be unique" })).toBe("document.rules[0].id must be unique");
    expect(issueSentence({ path: "rules", message: "Invalid input" })).toBe("document.rules: Invalid input");
    expect(issueSentence({ path: "", message: "must be a JSON object" })).toBe("document must be a JSON object");
  });
});

describe("checkRuleDocument on decay", () => {
  const hourly = (epoch: string) =>
    doc([rule(TYPE)], { currencies: { xp: { name: "XP", decay: { halfLifeSeconds: 3600, epoch } } } }) as Record<string, unknown>;
  const messages = (checked: ReturnType<typeof checkRuleDocument>) => (checked.ok ? [] : checked.issues.map((i) => `${i.path} ${i.message}`));

  it("refuses an epoch whose 4000 half-lives end before the present, naming the earliest epoch that reaches it", () => {
    // 4001 hours before 2026-11-30T12:00Z is 166 days and 17 hours earlier: 2026-06-16T19:00Z.
    expect(messages(checkRuleDocument(hourly("2026-06-01T00:00:00Z"), ctx))).toEqual([
      "currencies.xp.decay.epoch must be at or after 2026-06-16T19:00:00.000Z: points decay over fewer than 4001 half-lives of 3600 s from the epoch, and events come until now (2026-11-30T12:00:00.000Z)",
    ]);
    expect(checkRuleDocument(hourly("2026-06-16T19:00:00Z"), ctx).ok).toBe(true);
    expect(checkRuleDocument(hourly("2026-06-16T18:59:59.999Z"), ctx).ok).toBe(false);
  });

  it("measures an ended campaign to its ends_at, and lets a running one outlive the range (its events then wait for a later epoch)", () => {
    // From 2026-06-01 the range ends at 2026-11-14T17:00Z.
    const ended = { ...ctx, endsAt: new Date("2026-11-14T17:00:00Z") };
    expect(checkRuleDocument(hourly("2026-06-01T00:00:00Z"), ended).ok).toBe(true);
    expect(messages(checkRuleDocument(hourly("2026-06-01T00:00:00Z"), { ...ended, endsAt: new Date("2026-11-14T17:00:00.001Z") }))).toEqual([
      "currencies.xp.decay.epoch must be at or after 2026-06-01T00:00:00.001Z: points decay over fewer than 4001 half-lives of 3600 s from the epoch, and events come until the campaign's ends_at (2026-11-14T17:00:00.001Z)",
    ]);
    expect(checkRuleDocument(hourly("2026-11-01T00:00:00Z"), { ...ctx, endsAt: new Date("2027-12-31T00:00:00Z") }).ok).toBe(true);
  });

  it("refuses an epoch more than 30 half-lives after the first awards: now, or a later starts_at", () => {
    expect(messages(checkRuleDocument(hourly("2026-12-01T18:00:00.001Z"), ctx))).toEqual([
      "currencies.xp.decay.epoch must be at or before 2026-12-01T18:00:00.000Z: at most 30 half-lives of 3600 s after the first awards (now), which are stored scaled down by the half-lives to the epoch",
    ]);
    expect(checkRuleDocument(hourly("2026-12-01T18:00:00Z"), ctx).ok).toBe(true);
    const later = { ...ctx, startsAt: new Date("2027-01-01T00:00:00Z") };
    expect(checkRuleDocument(hourly("2027-01-01T00:00:00Z"), later).ok).toBe(true);
    expect(messages(checkRuleDocument(hourly("2027-01-02T07:00:00Z"), later))).toEqual([
      "currencies.xp.decay.epoch must be at or before 2027-01-02T06:00:00.000Z: at most 30 half-lives of 3600 s after the first awards (the campaign's starts_at), which are stored scaled down by the half-lives to the epoch",
    ]);
    // A daily half-life from a year ago reaches eleven years on, and an epoch 30 days ahead is fine.
    const daily = (epoch: string) => doc([rule(TYPE)], { currencies: { xp: { name: "XP", decay: { halfLifeSeconds: 86_400, epoch } } } });
    expect(checkRuleDocument(daily("2025-11-30T00:00:00Z"), ctx).ok).toBe(true);
    expect(checkRuleDocument(daily("2026-12-30T12:00:00Z"), ctx).ok).toBe(true);
  });
});
