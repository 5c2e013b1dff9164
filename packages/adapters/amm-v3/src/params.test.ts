// The amm-v3 adapter's parameters: each bad input is refused with a message naming the rule.
import { ammV3Adapter } from "./index";
import { MANAGER_REQUIRED, NOTHING_TRACKED } from "./params";

const POOL = "0x00000000000000000000000000000000000000A0";
const NPM = "0x00000000000000000000000000000000000000b0";
const issues = (params: unknown) => ammV3Adapter.paramsSchema.safeParse(params).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

describe("amm-v3 params", () => {
  it("is amm-v3 version 0.0.1 and accepts swaps only, or positions with a position manager (addresses lowercased)", () => {
    expect([ammV3Adapter.id, ammV3Adapter.version]).toEqual(["amm-v3", "0.0.1"]);
    expect(ammV3Adapter.description).toMatch(/^Concentrated-liquidity AMM pool: swaps .* position NFTs .* in range\.$/);
    expect(ammV3Adapter.paramsSchema.parse({ poolAddress: POOL, trackSwaps: true })).toEqual({ poolAddress: POOL.toLowerCase(), trackSwaps: true });
    expect(issues({ poolAddress: POOL, positionManagerAddress: NPM, trackLP: true, trackSwaps: false })).toEqual([]);
  });

  it("refuses each bad param with a message naming it", () => {
    expect(NOTHING_TRACKED).toBe("At least one of trackSwaps or trackLP must be enabled");
    expect(issues({ poolAddress: POOL })).toEqual([`: ${NOTHING_TRACKED}`]);
    expect(issues({ poolAddress: POOL, trackSwaps: false, trackLP: false })).toEqual([`: ${NOTHING_TRACKED}`]);
    expect(issues({ trackSwaps: true })).toEqual(["poolAddress: is required"]);
    expect(issues({ poolAddress: "0x12", trackSwaps: true })).toEqual(["poolAddress: must be a 0x-prefixed 20-byte hex address"]);
    expect(issues({ poolAddress: POOL, trackLP: true })).toEqual([`positionManagerAddress: ${MANAGER_REQUIRED}`]);
    // Both rules are zod custom issues.
    const codes = (params: unknown) => ammV3Adapter.paramsSchema.safeParse(params).error?.issues.map((i) => i.code);
    expect([codes({ poolAddress: POOL }), codes({ poolAddress: POOL, trackLP: true })]).toEqual([["custom"], ["custom"]]);
    expect(MANAGER_REQUIRED).toBe("is required when trackLP is true");
    expect(issues({ poolAddress: POOL, positionManagerAddress: "npm", trackLP: true })).toEqual([
      "positionManagerAddress: must be a 0x-prefixed 20-byte hex address",
    ]);
    expect(issues({ poolAddress: POOL, trackSwaps: "yes" })).toEqual(["trackSwaps: must be a boolean"]);
    expect(issues({ poolAddress: POOL, trackLP: 1, positionManagerAddress: NPM })).toContain("trackLP: must be a boolean");
    expect(issues({ poolAddress: POOL, trackSwaps: true, fee: 3000 })[0]).toMatch(/fee/);
  });
});
