// Checking a rule document against its campaign: schema problems, event types and currencies, with paths.
import { checkRuleDocument, emptyRuleVersion, issueSentence, type RuleContext } from "./rule-document";

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
  // 4001 hours after 2026-06-01T00:00Z is 166 days and 17 hours on: 2026-11-14T17:00Z.
  const hourly = (epoch: string) =>
    doc([rule(TYPE)], { currencies: { xp: { name: "XP", decay: { halfLifeSeconds: 3600, epoch } } } }) as Record<string, unknown>;

  it("refuses an epoch whose 4000 half-lives end before the present, naming the epoch and when its range ends", () => {
    expect(checkRuleDocument(hourly("2026-06-01T00:00:00Z"), ctx)).toEqual({
      ok: false,
      issues: [
        {
          path: "currencies.xp.decay.epoch",
          message: "must be later: 4000 half-lives of 3600 s from it end at 2026-11-14T17:00:00.000Z, before now",
        },
      ],
    });
    expect(checkRuleDocument(hourly("2026-07-01T00:00:00Z"), ctx).ok).toBe(true);
  });

  it("refuses an epoch whose range ends before the campaign's ends_at, and takes one that reaches it exactly", () => {
    const ending = { ...ctx, now: new Date("2026-07-01T00:00:00Z"), endsAt: new Date("2026-11-14T17:00:00.001Z") };
    const refused = checkRuleDocument(hourly("2026-06-01T00:00:00Z"), ending);
    expect(refused.ok ? [] : refused.issues.map((i) => i.message)).toEqual([
      "must be later: 4000 half-lives of 3600 s from it end at 2026-11-14T17:00:00.000Z, before the campaign's ends_at (2026-11-14T17:00:00.001Z)",
    ]);
    expect(checkRuleDocument(hourly("2026-06-01T00:00:00Z"), { ...ending, endsAt: new Date("2026-11-14T17:00:00Z") }).ok).toBe(true);
    // A daily half-life from the same epoch reaches eleven years on.
    const daily = doc([rule(TYPE)], { currencies: { xp: { name: "XP", decay: { halfLifeSeconds: 86_400, epoch: "2026-06-01T00:00:00Z" } } } });
    expect(checkRuleDocument(daily, { ...ending, endsAt: new Date("2036-01-01T00:00:00Z") }).ok).toBe(true);
  });
});

describe("emptyRuleVersion", () => {
  it("keeps the currencies and pays nothing", () => {
    const checked = checkRuleDocument(doc([rule(TYPE)]), ctx);
    if (!checked.ok) throw new Error("expected a valid document");
    expect(emptyRuleVersion(checked.document)).toMatchObject({ currencies: checked.document.currencies, rules: [] });
  });
});
