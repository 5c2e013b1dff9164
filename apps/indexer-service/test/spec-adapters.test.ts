// Spec rules on the adapters the service offers: every prebuilt kind the spec lists is registered and validates through
// the config, with its trackables (swap and LP for both AMMs, two vault versions, a vault priced by its underlying).
import { validateConfig } from "@pointwise/indexer-engine";
import { createRegistry } from "../src/adapters";

const A = "0x1111111111111111111111111111111111111111";
const B = "0x2222222222222222222222222222222222222222";

/** A valid config around `adapterConfig` (and feed rules); everything else is the minimum the spec asks for. */
const config = (adapterConfig: Record<string, unknown>, assetFeedConfig: unknown[] = []) => ({
  kind: "evm",
  indexerId: "spec-adapters",
  flushMs: 3_600_000,
  stateStoreUrl: "redis://127.0.0.1:6379",
  network: { chainId: 1 },
  range: { fromBlock: 1 },
  sinkConfig: { sinks: [{ sinkType: "stdout" }] },
  adapterConfig,
  assetFeedConfig,
});

const issues = (adapterConfig: Record<string, unknown>, feeds: unknown[] = []) => {
  const result = validateConfig(config(adapterConfig, feeds), createRegistry());
  return result.ok ? [] : result.issues.map((i) => i.message);
};

describe("prebuilt adapter kinds (spec: Adapter for a constant-product AMM pool, last paragraph)", () => {
  it("registers one adapter per kind the spec offers, each with a semver version", () => {
    const registry = createRegistry();
    expect([...registry.ids()].sort()).toEqual(["amm-v2", "amm-v3", "erc20-holdings", "lending", "vault"]);
    for (const id of registry.ids()) expect(registry.get(id)?.version).toMatch(/^\d+\.\d+\.\d+$/);
    // The pool adapter's version is the one the spec names.
    expect(registry.get("amm-v2")?.version).toBe("0.0.1");
  });

  it("takes each kind's trackables through the config: ERC20 holdings, AMM V2 and V3 swaps and LP, lending positions, two vault versions", () => {
    const valid: Record<string, unknown>[] = [
      { adapterId: "erc20-holdings", params: { tokenAddress: A } },
      { adapterId: "amm-v2", params: { poolAddress: A, trackSwaps: true } },
      { adapterId: "amm-v2", params: { poolAddress: A, trackLP: true } },
      { adapterId: "amm-v3", params: { poolAddress: A, trackSwaps: true } },
      { adapterId: "amm-v3", params: { poolAddress: A, positionManagerAddress: B, trackLP: true } },
      { adapterId: "lending", params: { poolAddress: A, trackSupply: true, trackBorrow: true } },
      { adapterId: "vault", params: { vaultAddress: A, version: "v1" } },
      { adapterId: "vault", params: { vaultAddress: A, version: "v2" } },
    ];
    for (const adapterConfig of valid) expect({ adapterConfig, issues: issues(adapterConfig) }).toEqual({ adapterConfig, issues: [] });
    // A vault version that is not one of the two is refused.
    expect(issues({ adapterId: "vault", params: { vaultAddress: A, version: "v3" } })).toEqual([
      "adapterConfig.params.version must be one of v1, v2 (v2: ERC-4626, v1: pricePerShare())",
    ]);
  });

  it("prices a vault's shares through its underlying asset's feed (vault adapter with underlying-asset pricing)", () => {
    const vault = { adapterId: "vault", params: { vaultAddress: A, version: "v2" } };
    const shareFeed = (underlying: unknown) => [
      { match: { key: A }, config: { assetType: "erc20", priceFeed: { kind: "vaultshare", version: "v2", underlying } } },
    ];
    expect(issues(vault, shareFeed({ kind: "market", id: "usd-coin" }))).toEqual([]);
    expect(issues(vault, shareFeed({ kind: "pegged", usdPegValue: 1 }))).toEqual([]);
    // Without an underlying selector there is nothing to price the share by.
    expect(issues(vault, shareFeed(undefined))).toEqual(["assetFeedConfig[0].config.priceFeed.underlying is required"]);
  });

  it("refuses an adapterId that is not registered, listing the registered ones (spec: adapterId must be a registered adapter)", () => {
    expect(issues({ adapterId: "uniswap-v2", params: {} })).toEqual([
      "Unknown adapter: uniswap-v2. Available adapters: amm-v2, amm-v3, erc20-holdings, lending, vault",
    ]);
  });
});
