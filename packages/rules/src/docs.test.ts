// The examples in docs/rules.md validate and score as the page says.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CAMPAIGN } from "../test/fixtures";
import { applyEvents, decayedValue, parseRuleVersion, parseUserState } from "./index";

const doc = readFileSync(join(__dirname, "../../../docs/rules.md"), "utf8");

function jsonBlockAfter(marker: string): unknown {
  const at = doc.indexOf(marker);
  if (at < 0) throw new Error(`marker ${marker} not found in docs/rules.md`);
  const match = /```json\n([\s\S]*?)```/.exec(doc.slice(at));
  if (!match?.[1]) throw new Error(`no json block after ${marker}`);
  return JSON.parse(match[1]);
}

describe("docs/rules.md", () => {
  const example = parseRuleVersion(jsonBlockAfter("<!-- example:rule-version -->"));

  it("its full rule version example validates", () => {
    expect(example.rules.map((r) => r.id)).toEqual(["swap-volume", "daily-login", "friday-quest"]);
  });

  it("its example scores: a Saturday EVM swap of 1000 at 0.01/unit x2 weekend x1.5 EVM pays 30 xp, read back as 30 at that moment", () => {
    const occurredAt = "2025-03-08T00:00:00.000Z";
    const rules = { ...example, campaignId: CAMPAIGN };
    const swap = example.rules[0]?.regEventId ?? "";
    const result = applyEvents({
      rules,
      events: [{ id: "e1", seq: "1", campaignId: CAMPAIGN, userId: "u1", regEventId: swap, identityType: "EVM_ADDRESS", amount: "1000", occurredAt }],
    });
    const [entry] = result.entries;
    expect(entry?.paid).toBe("30");
    expect(Number(decayedValue(entry?.scaledPaid ?? "0", occurredAt, example.currencies.xp?.decay))).toBeCloseTo(30, 12);
  });

  it("its example user state is a valid stored state, its login spans the times the page names", () => {
    const state = parseUserState(jsonBlockAfter("**Per-user state**"));
    expect(state.lastSeq).toBe("1842");
    expect(state.rules["daily-login"]?.spans).toEqual([
      [Date.parse("2025-02-22T10:00:00Z"), Date.parse("2025-02-28T12:00:00Z")],
      [Date.parse("2025-03-03T08:00:00Z"), Date.parse("2025-03-05T08:00:00Z")],
    ]);
  });
});
