// Asset feed rules matched by key, labels and expressions, and request spacing per minute.
import type { AssetFeedRule } from "../config/schema";
import { IntervalLimiter } from "./limiter";
import { findFeed, matches, needsLabels } from "./match";

const POOL = "0x00000000000000000000000000000000000000aa";
const labels = { protocol: "amm-v2", role: "lp", decimals: "18" };

describe("asset feed rules", () => {
  it("matches by key, labels and each expression operator", () => {
    expect(matches({ key: POOL }, POOL, {})).toBe(true);
    expect(matches({ key: POOL }, "0x00000000000000000000000000000000000000bb", {})).toBe(false);
    expect(matches({ matchLabels: { protocol: "amm-v2", role: "lp" } }, POOL, labels)).toBe(true);
    expect(matches({ matchLabels: { protocol: "amm-v3" } }, POOL, labels)).toBe(false);
    const expr = (operator: "In" | "NotIn" | "Exists" | "DoesNotExist", key: string, values?: string[]) =>
      matches({ matchExpressions: [{ key, operator, ...(values === undefined ? {} : { values }) }] }, POOL, labels);
    expect(expr("In", "protocol", ["amm-v2", "amm-v3"])).toBe(true);
    expect(expr("In", "protocol", ["amm-v3"])).toBe(false);
    expect(expr("NotIn", "protocol", ["amm-v3"])).toBe(true);
    expect(expr("NotIn", "protocol", ["amm-v2"])).toBe(false);
    expect(expr("NotIn", "missing", ["x"])).toBe(true);
    expect(expr("Exists", "role")).toBe(true);
    expect(expr("Exists", "missing")).toBe(false);
    expect(expr("DoesNotExist", "missing")).toBe(true);
    expect(expr("DoesNotExist", "role")).toBe(false);
    // Every expression must hold.
    expect(
      matches(
        {
          matchExpressions: [
            { key: "role", operator: "Exists" },
            { key: "protocol", operator: "In", values: ["x"] },
          ],
        },
        POOL,
        labels,
      ),
    ).toBe(false);
  });

  it("reads only the asset's own labels, never names inherited by every object", () => {
    for (const key of ["toString", "constructor", "__proto__"]) {
      expect(matches({ matchExpressions: [{ key, operator: "Exists" }] }, POOL, {})).toBe(false);
      expect(matches({ matchExpressions: [{ key, operator: "DoesNotExist" }] }, POOL, {})).toBe(true);
      expect(matches({ matchExpressions: [{ key, operator: "NotIn", values: ["x"] }] }, POOL, {})).toBe(true);
    }
  });

  it("treats In and NotIn without values as an empty list, and a match with no condition as matching every asset", () => {
    expect(matches({ matchExpressions: [{ key: "role", operator: "In" }] }, POOL, labels)).toBe(false);
    expect(matches({ matchExpressions: [{ key: "role", operator: "NotIn" }] }, POOL, labels)).toBe(true);
    expect(matches({}, POOL, {})).toBe(true);
    expect(matches({ matchLabels: {} }, POOL, {})).toBe(true);
  });

  it("prefers key over labels and labels over expressions when a match names several", () => {
    expect(matches({ key: POOL, matchLabels: { protocol: "other" } }, POOL, labels)).toBe(true);
    expect(matches({ matchLabels: { protocol: "amm-v2" }, matchExpressions: [{ key: "role", operator: "DoesNotExist" }] }, POOL, labels)).toBe(true);
  });

  it("needs labels loaded only when some rule matches on something other than the key", () => {
    const feed = { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } as const;
    expect(needsLabels([{ match: { key: POOL }, config: feed }])).toBe(false);
    expect(needsLabels([])).toBe(false);
    expect(
      needsLabels([
        { match: { key: POOL }, config: feed },
        { match: { matchLabels: { role: "lp" } }, config: feed },
      ]),
    ).toBe(true);
  });

  it("uses the first rule that matches", () => {
    const rules: AssetFeedRule[] = [
      { match: { matchLabels: { protocol: "amm-v3" } }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 3 } } },
      {
        match: { matchExpressions: [{ key: "role", operator: "In", values: ["lp"] }] },
        config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } },
      },
      { match: { key: POOL }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 2 } } },
    ];
    expect(findFeed(rules, POOL, labels)).toEqual({ kind: "pegged", usdPegValue: 1 });
    expect(findFeed(rules, POOL, {})).toEqual({ kind: "pegged", usdPegValue: 2 });
    expect(findFeed(rules, "0x00000000000000000000000000000000000000cc", {})).toBeUndefined();
  });
});

describe("request spacing", () => {
  it("spaces requests by 60000 / perMinute and honours a pause", () => {
    const limiter = new IntervalLimiter(30);
    expect(limiter.reserve(1_000)).toBe(0);
    expect(limiter.reserve(1_000)).toBe(2_000);
    expect(limiter.reserve(1_500)).toBe(3_500);
    expect(limiter.reserve(100_000)).toBe(0);
    limiter.pauseUntil(110_000);
    expect(limiter.reserve(100_500)).toBe(9_500);
  });
});
