// parseRuleVersion: defaults, and each invalid rule version refused with the path and rule it breaks.
import { ValidationError } from "@pointwise/errors";
import { CAMPAIGN, SWAP, thrownBy } from "../test/fixtures";
import { parseRuleVersion, type RuleVersionInput, safeParseRuleVersion } from "./index";

function valid(): RuleVersionInput {
  return {
    campaignId: CAMPAIGN,
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience" } },
    rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1.5" } }],
  };
}

const messageOf = (input: unknown) => thrownBy(() => parseRuleVersion(input), ValidationError).message;

describe("parseRuleVersion", () => {
  it("accepts a minimal rule version and fills decimals with 2", () => {
    const rv = parseRuleVersion(valid());
    expect(rv.currencies.xp?.decimals).toBe(2);
  });

  it("rejects a negative points value naming rules[0].base.points", () => {
    const input = valid();
    input.rules = [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "-1" } }];
    expect(messageOf(input)).toBe('Invalid rule version: rules[0].base.points must be a non-negative decimal string such as "1.5"');
  });

  it("rejects a zero base points value as must be greater than 0", () => {
    const input = valid();
    input.rules = [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "0" } }];
    expect(messageOf(input)).toBe("Invalid rule version: rules[0].base.points must be greater than 0");
  });

  it("rejects a rule in an unknown currency and lists the known ones", () => {
    const input = valid();
    input.rules = [{ id: "swap", regEventId: SWAP, currency: "gems", base: { kind: "fixed", points: "1" } }];
    expect(messageOf(input)).toBe("Invalid rule version: rules[0].currency must be one of the currencies (xp)");
  });

  it("rejects a primary currency that is not defined", () => {
    expect(messageOf({ ...valid(), primaryCurrency: "gold" })).toBe("Invalid rule version: primaryCurrency must be one of the currencies (xp)");
  });

  it("rejects unknown keys because the document is strict", () => {
    expect(messageOf({ ...valid(), bonus: true })).toContain('Unrecognized key: "bonus"');
  });

  it("rejects two rules with the same id and points at the second", () => {
    const input = valid();
    const rule = { id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed" as const, points: "1" } };
    input.rules = [rule, rule];
    expect(messageOf(input)).toBe('Invalid rule version: rules[1].id must be unique: rule id "swap" is also used at index 0');
  });

  it("rejects a rule with neither base nor milestones", () => {
    const input = valid();
    input.rules = [{ id: "swap", regEventId: SWAP, currency: "xp" }];
    expect(messageOf(input)).toBe("Invalid rule version: rules[0].base must be set when the rule has no milestones");
  });

  it("rejects tiers whose minLifetime does not increase", () => {
    const input = valid();
    input.currencies = {
      xp: {
        name: "Experience",
        tiers: [
          { key: "silver", name: "Silver", minLifetime: "100" },
          { key: "bronze", name: "Bronze", minLifetime: "100" },
        ],
      },
    };
    expect(messageOf(input)).toBe("Invalid rule version: currencies.xp.tiers[1].minLifetime must be greater than the previous tier's minLifetime");
  });

  it("rejects a tier multiplier naming a tier the currency lacks", () => {
    const input = valid();
    input.rules = [
      { id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "1" }, multipliers: [{ kind: "tier", factors: { gold: "2" } }] },
    ];
    expect(messageOf(input)).toBe("Invalid rule version: rules[0].multipliers[0].factors.gold must name a tier of currency xp (it has none)");
  });

  it("rejects two caps of the same period on one rule", () => {
    const input = valid();
    input.rules = [
      {
        id: "swap",
        regEventId: SWAP,
        currency: "xp",
        base: { kind: "fixed", points: "1" },
        caps: [
          { period: "day", limit: "5" },
          { period: "day", limit: "6" },
        ],
      },
    ];
    expect(messageOf(input)).toBe('Invalid rule version: rules[0].caps[1].period must be unique: period "day" is also used at index 0');
  });

  it("rejects activeUntil not after activeFrom", () => {
    const input = valid();
    input.rules = [
      {
        id: "swap",
        regEventId: SWAP,
        currency: "xp",
        base: { kind: "fixed", points: "1" },
        activeFrom: "2025-02-01T00:00:00Z",
        activeUntil: "2025-01-01T00:00:00Z",
      },
    ];
    expect(messageOf(input)).toBe("Invalid rule version: rules[0].activeUntil must be later than activeFrom");
  });

  it("rejects an hour window whose from equals to", () => {
    const input = valid();
    input.rules = [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "1" }, schedule: [{ hours: { from: 5, to: 5 } }] }];
    expect(messageOf(input)).toContain("rules[0].schedule[0].hours must have from different from to");
  });

  it("rejects a referral share above 1", () => {
    expect(messageOf({ ...valid(), referral: { shares: { xp: "1.5" } } })).toBe("Invalid rule version: referral.shares.xp must be at most 1");
  });

  it("rejects a decay half-life under one hour", () => {
    const input = valid();
    input.currencies = { xp: { name: "Experience", decay: { halfLifeSeconds: 60, epoch: "2025-01-01T00:00:00Z" } } };
    expect(messageOf(input)).toContain("currencies.xp.decay.halfLifeSeconds");
  });

  it("rejects an uppercase currency key naming the key rule", () => {
    expect(messageOf({ ...valid(), currencies: { XP: { name: "Experience" } } })).toContain("currencies.XP key must be 1-32 lowercase letters");
  });

  it("returns every issue as a value from safeParseRuleVersion", () => {
    const result = safeParseRuleVersion({ ...valid(), primaryCurrency: "gold", version: 0 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path).sort()).toEqual(["primaryCurrency", "version"]);
  });

  it("sets field and code on the thrown error", () => {
    const input = valid();
    input.rules = [{ id: "swap", regEventId: "not-a-uuid", currency: "xp", base: { kind: "fixed", points: "1" } }];
    try {
      parseRuleVersion(input);
      throw new Error("expected a ValidationError");
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).code).toBe("rule-version-invalid");
      expect((err as ValidationError).field).toBe("rules[0].regEventId");
    }
  });
});
