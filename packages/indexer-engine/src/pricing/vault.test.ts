// The vaultshare feed against an in-memory chain: the underlying read once, one share's underlying at each block, times its price.
import DecimalJs from "decimal.js";
import { getAddress, Interface, id } from "ethers";
import fc from "fast-check";
import type { FeedSelector } from "../config/schema";
import { Dec } from "../decimal";
import { type MemoryContract, MemoryReader, memoryChain } from "../testing/feeds";
import type { Point } from "../windows";
import { underlyingPerShare, type VaultShareFeed, vaultSharePrice, vaultUnderlying } from "./vault";

const VAULT = "0x00000000000000000000000000000000000a4626";
const YEARN = "0x00000000000000000000000000000000000000e1";
// Mixed-case (checksummed) on the chain, as ethers decodes addresses; the feed keys its work by the lower-case form.
const USDC = "0x00000000000000000000000000000000000abcde";
const USDC_CHECKSUMMED = getAddress(USDC);

const abi = new Interface([
  "function asset() view returns (address)",
  "function token() view returns (address)",
  "function pricePerShare() view returns (uint256)",
  "function convertToAssets(uint256 shares) view returns (uint256)",
]);

const USD_UNDERLYING: FeedSelector = { kind: "market", id: "usd-coin" };
const V2: VaultShareFeed = { kind: "vaultshare", version: "v2", underlying: USD_UNDERLYING };
const V1: VaultShareFeed = { kind: "vaultshare", version: "v1", underlying: USD_UNDERLYING };

/** Underlying raw units held per raw share unit, per block, as a fraction assets/supply (1e9 shares of 9 decimals, 1e6 assets of 6). */
const V2_BOOKS: Record<number, { assets: bigint; supply: bigint }> = {
  100: { assets: 1_000_000n, supply: 1_000_000_000n }, // 1 share = 1 USDC
  200: { assets: 1_050_000n, supply: 1_000_000_000n }, // 1 share = 1.05 USDC
  300: { assets: 3_000_001n, supply: 2_000_000_000n }, // 1 share = 1.5000005 USDC
};

/** An ERC-4626 vault of 9 decimals over USDC: convertToAssets(shares) = shares * assets / supply at the block, rounded down. */
function erc4626(): MemoryContract {
  return {
    asset: () => [USDC_CHECKSUMMED],
    convertToAssets: ([shares], block) => {
      const books = V2_BOOKS[block as number];
      if (books === undefined) throw new Error(`no state at block ${block}`);
      return [((shares as bigint) * books.assets) / books.supply];
    },
  };
}

/** A Yearn V2 vault of 6 decimals over USDC: pricePerShare() is the USDC (raw) one whole share is worth. */
function yearn(): MemoryContract {
  const perShare: Record<number, bigint> = { 100: 1_000_000n, 200: 1_023_456n };
  return {
    token: () => [USDC_CHECKSUMMED],
    pricePerShare: (_args, block) => {
      const value = perShare[block as number];
      if (value === undefined) throw new Error(`no state at block ${block}`);
      return [value];
    },
  };
}

function setup(priceOf: (asset: string, point: Point) => Dec | undefined = () => new Dec("0.9998")) {
  const chain = memoryChain(abi, { [VAULT]: erc4626(), [YEARN]: yearn() });
  const reader = new MemoryReader(chain, { [VAULT]: 9, [YEARN]: 6, [USDC]: 6 }, priceOf);
  return { chain, reader };
}

/** An independent decimal for expected values, precise enough to hold every product exactly. */
const Exact = DecimalJs.clone({ precision: 100 });

const at = (block: number): Point => ({ block, ts: 1_700_000_000_000 + block * 12_000 });

describe("vault underlying", () => {
  it("reads an ERC-4626 (v2) vault's asset() once, without a block, as a lower-case address", async () => {
    const { chain, reader } = setup();
    expect(await vaultUnderlying(reader, "v2", VAULT)).toBe(USDC);
    expect(await vaultUnderlying(reader, "v2", VAULT)).toBe(USDC);
    expect(chain.calls).toEqual([{ to: VAULT, fn: "asset", args: [], block: undefined }]);
    expect(reader.facts).toEqual(new Map([[`vault:${VAULT}:asset`, USDC]]));
  });

  it("reads a Yearn V2 (v1) vault's token()", async () => {
    const { chain, reader } = setup();
    expect(await vaultUnderlying(reader, "v1", YEARN)).toBe(USDC);
    expect(chain.calls).toEqual([{ to: YEARN, fn: "token", args: [], block: undefined }]);
    expect(reader.facts).toEqual(new Map([[`vault:${YEARN}:asset`, USDC]]));
  });

  it("takes the underlying from the fact cache when an earlier run stored it", async () => {
    const { chain, reader } = setup();
    reader.facts.set(`vault:${VAULT}:asset`, "0x00000000000000000000000000000000000000aa");
    expect(await vaultUnderlying(reader, "v2", VAULT)).toBe("0x00000000000000000000000000000000000000aa");
    expect(chain.calls).toEqual([]);
  });

  it("stops with feed-config-invalid naming the other version when the vault reverts its version's getter, and caches nothing", async () => {
    const { reader } = setup();
    await expect(vaultUnderlying(reader, "v1", VAULT)).rejects.toMatchObject({
      code: "feed-config-invalid",
      message: `vaultshare of vault ${VAULT}: could not read token() as version v1; use version v2 for an ERC-4626 vault`,
      details: { vault: VAULT, version: "v1" },
    });
    await expect(vaultUnderlying(reader, "v2", YEARN)).rejects.toMatchObject({
      code: "feed-config-invalid",
      message: `vaultshare of vault ${YEARN}: could not read asset() (ERC-4626) as version v2; use version v1 for a vault with pricePerShare()`,
    });
    expect(reader.facts).toEqual(new Map());
  });

  it("passes on a call that got no answer as it is: a lost connection says nothing about the version", async () => {
    const { chain, reader } = setup();
    const lost = new Error("connect ECONNREFUSED 127.0.0.1:8545");
    chain.call = async () => {
      throw lost;
    };
    await expect(vaultUnderlying(reader, "v2", VAULT)).rejects.toBe(lost);
  });
});

describe("underlying per share", () => {
  it("asks an ERC-4626 vault to convert one whole share (10^share decimals) at the block", async () => {
    const { chain, reader } = setup();
    // 10^9 shares * 1050000 / 10^9 = 1050000 raw USDC.
    expect(await underlyingPerShare(reader, V2, VAULT, 200)).toBe(1_050_000n);
    expect(chain.calls).toEqual([{ to: VAULT, fn: "convertToAssets", args: [1_000_000_000n], block: 200 }]);
    // The call data is the convertToAssets(uint256) selector followed by one 32-byte word holding 10^9.
    const data = id("convertToAssets(uint256)").slice(0, 10) + (10n ** 9n).toString(16).padStart(64, "0");
    expect(abi.encodeFunctionData("convertToAssets", [10n ** 9n])).toBe(data);
  });

  it("reads a Yearn V2 vault's pricePerShare() at the block", async () => {
    const { chain, reader } = setup();
    expect(await underlyingPerShare(reader, V1, YEARN, 200)).toBe(1_023_456n);
    expect(chain.calls).toEqual([{ to: YEARN, fn: "pricePerShare", args: [], block: 200 }]);
  });
});

describe("vault share price", () => {
  it("prices an ERC-4626 share as convertToAssets(10^9) / 10^6 times the underlying's price, at each point's block", async () => {
    const { chain, reader } = setup();
    // 1050000 / 10^6 = 1.05 USDC a share, at 0.9998 USD each: 1.04979.
    expect((await vaultSharePrice(reader, V2, VAULT, at(200)))?.toString()).toBe("1.04979");
    // 10^9 * 3000001 / (2 * 10^9) = 1500000 (rounded down by the vault) -> 1.5 USDC, at 0.9998: 1.4997.
    expect((await vaultSharePrice(reader, V2, VAULT, at(300)))?.toString()).toBe("1.4997");
    expect(chain.calls.map((c) => [c.fn, c.block])).toEqual([
      ["asset", undefined],
      ["convertToAssets", 200],
      ["convertToAssets", 300],
    ]);
    expect(reader.priceCalls).toEqual([
      { feed: USD_UNDERLYING, asset: USDC, point: at(200) },
      { feed: USD_UNDERLYING, asset: USDC, point: at(300) },
    ]);
    expect(reader.priceCalls[0]?.feed).toBe(V2.underlying);
  });

  it("prices a Yearn V2 share as pricePerShare / 10^6 times the underlying's price", async () => {
    const { chain, reader } = setup((_asset, point) => (point.block === 200 ? new Dec("2") : new Dec("1")));
    // 1023456 / 10^6 = 1.023456 USDC, at 2 USD: 2.046912.
    expect((await vaultSharePrice(reader, V1, YEARN, at(200)))?.toString()).toBe("2.046912");
    expect((await vaultSharePrice(reader, V1, YEARN, at(100)))?.toString()).toBe("1");
    expect(chain.calls.map((c) => [c.to, c.fn, c.block])).toEqual([
      [YEARN, "token", undefined],
      [YEARN, "pricePerShare", 200],
      [YEARN, "pricePerShare", 100],
    ]);
  });

  it("divides by the underlying's own decimals, not the share's", async () => {
    // The same vault over an 18-decimal underlying: 1050000 raw is 1.05e-12 whole units, at 1000 USD 1.05e-9.
    const chain = memoryChain(abi, { [VAULT]: erc4626() });
    const reader = new MemoryReader(chain, { [VAULT]: 9, [USDC]: 18 }, () => new Dec("1000"));
    expect((await vaultSharePrice(reader, V2, VAULT, at(200)))?.toString()).toBe("0.00000000105");
  });

  it("is undefined when the underlying has no price at the point", async () => {
    const { reader } = setup(() => undefined);
    expect(await vaultSharePrice(reader, V2, VAULT, at(200))).toBeUndefined();
    expect(reader.priceCalls).toEqual([{ feed: USD_UNDERLYING, asset: USDC, point: at(200) }]);
  });

  it("is the share's underlying amount times the underlying's price for any rate, decimals and price (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        async (perShare, shareDecimals, assetDecimals, cents) => {
          const chain = memoryChain(abi, {
            [VAULT]: {
              asset: () => [USDC_CHECKSUMMED],
              convertToAssets: ([shares]) => [(shares as bigint) === 10n ** BigInt(shareDecimals) ? perShare : 0n],
            },
          });
          const price = new Dec(cents).div(100);
          const reader = new MemoryReader(chain, { [VAULT]: shareDecimals, [USDC]: assetDecimals }, () => price);
          const expected = new Exact(perShare.toString()).div(new Exact(10).pow(assetDecimals)).times(cents).div(100);
          const actual = await vaultSharePrice(reader, V2, VAULT, at(100));
          expect(actual?.minus(expected.toString()).abs().lte(expected.abs().times("1e-50"))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});
