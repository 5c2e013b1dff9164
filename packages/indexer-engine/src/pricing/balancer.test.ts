// The balancerv2nav feed against an in-memory chain: pool facts read once, Vault balances and pool supply at each block, priced per token.
import DecimalJs from "decimal.js";
import { getAddress, Interface } from "ethers";
import fc from "fast-check";
import type { FeedSelector } from "../config/schema";
import { Dec } from "../decimal";
import { type MemoryContract, MemoryReader, memoryChain, RawAnswer, revert } from "../testing/feeds";
import type { Point } from "../windows";
import { type BalancerFeed, balancerNav, balancerPoolFacts } from "./balancer";

const POOL = "0x5c6ee304399dbdb9c8ef030ab642b10820db8f56";
const POOL_ID = "0x5c6ee304399dbdb9c8ef030ab642b10820db8f56000200000000000000000014";
const B_VAULT = "0xba12222222228d8ba445958a75a0704d566bf2c8";
const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
const DAI = "0x6b175474e89094c44da98b954eedeac495271d0f";
const STRANGER = "0x00000000000000000000000000000000000000f7";
const STRANGER2 = "0x00000000000000000000000000000000000000f8";

const abi = new Interface([
  "function getVault() view returns (address)",
  "function getPoolId() view returns (bytes32)",
  "function getActualSupply() view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)",
]);

const DECIMALS: Record<string, number> = { [USDC]: 6, [WETH]: 18, [DAI]: 18, [POOL]: 18 };
const E18 = 10n ** 18n;

/** The pool's state per block: Vault balances (token order as the Vault keeps it) and the two supplies. */
interface PoolState {
  tokens: string[];
  balances: bigint[];
  actualSupply: bigint;
  totalSupply: bigint;
}

const STATES: Record<number, PoolState> = {
  // 2,000,000.5 USDC and 1,000.25 WETH; 40,005.005 tokens by getActualSupply, 40,000 minted.
  500: {
    tokens: [USDC, WETH],
    balances: [2_000_000_500_000n, 1_000_250_000_000_000_000_000n],
    actualSupply: 40_005_005n * 10n ** 15n,
    totalSupply: 40_000n * E18,
  },
  // 1,000,000 USDC and 500 WETH over 20,000 tokens.
  600: { tokens: [USDC, WETH], balances: [1_000_000_000_000n, 500n * E18], actualSupply: 20_000n * E18, totalSupply: 20_000n * E18 },
};

type SupplyKind = "actual" | "none" | "fallback";

/** A pool whose Vault and pool id it reports, and the Vault's getPoolTokens, both answering from `states` by block. */
function poolChain(supply: SupplyKind, states: Record<number, PoolState> = STATES) {
  const state = (block: number | undefined) => {
    const s = states[block as number];
    if (s === undefined) throw new Error(`no state at block ${block}`);
    return s;
  };
  const pool: MemoryContract = {
    getVault: () => [getAddress(B_VAULT)],
    getPoolId: () => [POOL_ID],
    totalSupply: (_args, block) => [state(block).totalSupply],
  };
  // Probed without a block (the pool's code does not change); the value then is not a price input.
  if (supply === "actual") pool.getActualSupply = (_args, block) => [block === undefined ? 1n : state(block).actualSupply];
  if (supply === "fallback") pool.getActualSupply = () => new RawAnswer("0x");
  const vault: MemoryContract = {
    getPoolTokens: ([poolId], block) => {
      if (poolId !== POOL_ID) throw revert();
      const s = state(block);
      return [s.tokens.map((t) => getAddress(t)), s.balances, 17n];
    },
  };
  return memoryChain(abi, { [POOL]: pool, [B_VAULT]: vault });
}

const USD: FeedSelector = { kind: "pegged", usdPegValue: 1 };
const ETH: FeedSelector = { kind: "market", id: "ethereum" };
// Config keys may be in any case; the pool's tokens compare in lower case.
const FEED: BalancerFeed = { kind: "balancerv2nav", tokens: { [getAddress(USDC)]: USD, [WETH]: ETH } };

/** USDC at 1, WETH at 2000 (2100 at block 600). */
function prices(asset: string, point: Point): Dec | undefined {
  if (asset === USDC) return new Dec(1);
  if (asset === WETH) return new Dec(point.block === 600 ? 2100 : 2000);
  return undefined;
}

const at = (block: number): Point => ({ block, ts: 1_700_000_000_000 + block * 12_000 });

/** An independent decimal for expected values, precise enough to hold every product exactly. */
const Exact = DecimalJs.clone({ precision: 100 });

describe("balancer pool facts", () => {
  it("reads the Vault, the pool id and that the pool answers getActualSupply, each once and without a block", async () => {
    const chain = poolChain("actual");
    const reader = new MemoryReader(chain, DECIMALS, prices);
    const expected = { vault: B_VAULT, poolId: POOL_ID, supplyCall: abi.getFunction("getActualSupply")?.selector };
    expect(await balancerPoolFacts(reader, POOL)).toEqual(expected);
    expect(await balancerPoolFacts(reader, POOL)).toEqual(expected);
    expect(chain.calls).toEqual([
      { to: POOL, fn: "getVault", args: [], block: undefined },
      { to: POOL, fn: "getPoolId", args: [], block: undefined },
      { to: POOL, fn: "getActualSupply", args: [], block: undefined },
    ]);
    expect(reader.facts).toEqual(
      new Map([
        [`balancer:${POOL}:vault`, B_VAULT],
        [`balancer:${POOL}:poolId`, POOL_ID],
        [`balancer:${POOL}:supply`, "getActualSupply"],
      ]),
    );
  });

  it("counts a first-version pool's supply by totalSupply when getActualSupply reverts", async () => {
    const reader = new MemoryReader(poolChain("none"), DECIMALS, prices);
    expect((await balancerPoolFacts(reader, POOL)).supplyCall).toBe(abi.getFunction("totalSupply")?.selector);
    expect(reader.facts.get(`balancer:${POOL}:supply`)).toBe("totalSupply");
  });

  it("counts supply by totalSupply when a fallback function answers getActualSupply with no data", async () => {
    const reader = new MemoryReader(poolChain("fallback"), DECIMALS, prices);
    expect((await balancerPoolFacts(reader, POOL)).supplyCall).toBe(abi.getFunction("totalSupply")?.selector);
    expect(reader.facts.get(`balancer:${POOL}:supply`)).toBe("totalSupply");
  });

  it("takes an answer of exactly one word (66 characters) as getActualSupply, and a shorter one as none", async () => {
    for (const [data, kind] of [
      [`0x${"0".repeat(63)}1`, "getActualSupply"],
      [`0x${"0".repeat(62)}`, "totalSupply"],
    ] as const) {
      const chain = poolChain("actual");
      const reader = new MemoryReader(
        { call: (to, d, block) => (d === abi.getFunction("getActualSupply")?.selector ? Promise.resolve(data) : chain.call(to, d, block)) },
        DECIMALS,
        prices,
      );
      await balancerPoolFacts(reader, POOL);
      expect([data.length, reader.facts.get(`balancer:${POOL}:supply`)]).toEqual([data.length, kind]);
    }
  });

  it("passes on a lost connection while probing getActualSupply without caching an answer, and probes again later", async () => {
    const chain = poolChain("actual");
    let down = true;
    const reader = new MemoryReader(
      {
        call: (to, data, block) =>
          down && data === abi.getFunction("getActualSupply")?.selector ? Promise.reject(new Error("socket hang up")) : chain.call(to, data, block),
      },
      DECIMALS,
      prices,
    );
    await expect(balancerPoolFacts(reader, POOL)).rejects.toThrow("socket hang up");
    expect(reader.facts.has(`balancer:${POOL}:supply`)).toBe(false);
    down = false;
    expect((await balancerPoolFacts(reader, POOL)).supplyCall).toBe(abi.getFunction("getActualSupply")?.selector);
    expect(reader.facts.get(`balancer:${POOL}:supply`)).toBe("getActualSupply");
  });
});

describe("balancer pool-token price", () => {
  it("is the pool's token balances times their prices over getActualSupply, read at each point's block", async () => {
    const chain = poolChain("actual");
    const reader = new MemoryReader(chain, DECIMALS, prices);
    // Block 500: 2,000,000.5 * 1 + 1,000.25 * 2000 = 4,000,500.5 USD over 40,005.005 tokens = 100.
    expect((await balancerNav(reader, FEED, POOL, at(500)))?.toString()).toBe("100");
    // Block 600: 1,000,000 * 1 + 500 * 2100 = 2,050,000 USD over 20,000 tokens = 102.5.
    expect((await balancerNav(reader, FEED, POOL, at(600)))?.toString()).toBe("102.5");
    expect(chain.calls.slice(3)).toEqual([
      { to: B_VAULT, fn: "getPoolTokens", args: [POOL_ID], block: 500 },
      { to: POOL, fn: "getActualSupply", args: [], block: 500 },
      { to: B_VAULT, fn: "getPoolTokens", args: [POOL_ID], block: 600 },
      { to: POOL, fn: "getActualSupply", args: [], block: 600 },
    ]);
    expect(reader.priceCalls).toEqual([
      { feed: USD, asset: USDC, point: at(500) },
      { feed: ETH, asset: WETH, point: at(500) },
      { feed: USD, asset: USDC, point: at(600) },
      { feed: ETH, asset: WETH, point: at(600) },
    ]);
  });

  it("divides a first-version pool's value by totalSupply", async () => {
    const chain = poolChain("none");
    const reader = new MemoryReader(chain, DECIMALS, prices);
    // 4,000,500.5 USD over 40,000 tokens.
    expect((await balancerNav(reader, FEED, POOL, at(500)))?.toString()).toBe("100.0125125");
    expect(chain.calls.at(-1)).toEqual({ to: POOL, fn: "totalSupply", args: [], block: 500 });
  });

  it("counts supply in the pool token's own decimals", async () => {
    // The same pool with a 6-decimal pool token: 40,005,005 * 10^15 raw is 40,005,005 * 10^9 tokens,
    // so 4,000,500.5 USD is 10^-10 USD a token.
    const reader = new MemoryReader(poolChain("actual"), { ...DECIMALS, [POOL]: 6 }, prices);
    expect((await balancerNav(reader, FEED, POOL, at(500)))?.toString()).toBe("0.0000000001");
  });

  it("skips a composable pool's own pre-minted tokens among its balances", async () => {
    const composable: Record<number, PoolState> = {
      500: { ...(STATES[500] as PoolState), tokens: [USDC, POOL, WETH], balances: [2_000_000_500_000n, 2n ** 111n, 1_000_250_000_000_000_000_000n] },
    };
    const reader = new MemoryReader(poolChain("actual", composable), DECIMALS, prices);
    expect((await balancerNav(reader, FEED, POOL, at(500)))?.toString()).toBe("100");
    expect(reader.priceCalls.map((c) => c.asset)).toEqual([USDC, WETH]);
  });

  it("is undefined when a token of the pool has no price at the point", async () => {
    const reader = new MemoryReader(poolChain("actual"), DECIMALS, (asset, point) => (asset === WETH ? undefined : prices(asset, point)));
    expect(await balancerNav(reader, FEED, POOL, at(500))).toBeUndefined();
  });

  it("is undefined when the pool has no supply at the point", async () => {
    const empty: Record<number, PoolState> = { 700: { tokens: [USDC, WETH], balances: [0n, 0n], actualSupply: 0n, totalSupply: 0n } };
    const reader = new MemoryReader(poolChain("actual", empty), DECIMALS, prices);
    expect(await balancerNav(reader, FEED, POOL, at(700))).toBeUndefined();
  });

  describe("refuses a feed whose tokens are not exactly the pool's, naming the pool's tokens", () => {
    const threeTokens: Record<number, PoolState> = {
      500: { tokens: [USDC, WETH, DAI], balances: [1n, 1n, 1n], actualSupply: E18, totalSupply: E18 },
    };

    async function failure(feedTokens: Record<string, FeedSelector>, states: Record<number, PoolState>) {
      const reader = new MemoryReader(poolChain("actual", states), DECIMALS, prices);
      const err = await balancerNav(reader, { kind: "balancerv2nav", tokens: feedTokens }, POOL, at(500)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(reader.priceCalls).toEqual([]);
      return err;
    }

    it("when a pool token is missing", async () => {
      expect(await failure({ [USDC]: USD, [WETH]: ETH }, threeTokens)).toMatchObject({
        code: "feed-config-invalid",
        message: `balancerv2nav of pool ${POOL}: tokens must name exactly the pool's tokens ${USDC}, ${WETH}, ${DAI}; missing ${DAI}`,
        details: { pool: POOL },
      });
    });

    it("when the feed names tokens not in the pool", async () => {
      expect(await failure({ [USDC]: USD, [WETH]: ETH, [STRANGER]: USD, [STRANGER2]: USD }, STATES)).toMatchObject({
        code: "feed-config-invalid",
        message: `balancerv2nav of pool ${POOL}: tokens must name exactly the pool's tokens ${USDC}, ${WETH}; not in the pool ${STRANGER}, ${STRANGER2}`,
      });
    });

    it("when both are wrong", async () => {
      expect(await failure({ [USDC]: USD, [STRANGER]: USD }, threeTokens)).toMatchObject({
        code: "feed-config-invalid",
        message: `balancerv2nav of pool ${POOL}: tokens must name exactly the pool's tokens ${USDC}, ${WETH}, ${DAI}; missing ${WETH}, ${DAI}; not in the pool ${STRANGER}`,
      });
    });
  });

  it("is the sum of balance / 10^decimals * price over supply / 10^pool decimals for any pool (property)", async () => {
    const token = fc.record({
      balance: fc.bigInt({ min: 0n, max: 10n ** 30n }),
      decimals: fc.integer({ min: 0, max: 24 }),
      cents: fc.integer({ min: 0, max: 10_000_000 }),
    });
    await fc.assert(
      fc.asyncProperty(token, token, fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.integer({ min: 0, max: 24 }), async (a, b, supply, poolDecimals) => {
        const states = { 500: { tokens: [USDC, WETH], balances: [a.balance, b.balance], actualSupply: supply, totalSupply: 1n } };
        const reader = new MemoryReader(poolChain("actual", states), { [USDC]: a.decimals, [WETH]: b.decimals, [POOL]: poolDecimals }, (asset) =>
          new Dec(asset === USDC ? a.cents : b.cents).div(100),
        );
        const units = (raw: bigint, decimals: number) => new Exact(raw.toString()).div(new Exact(10).pow(decimals));
        const value = units(a.balance, a.decimals).times(a.cents).plus(units(b.balance, b.decimals).times(b.cents)).div(100);
        const expected = value.div(units(supply, poolDecimals));
        const actual = await balancerNav(reader, FEED, POOL, at(500));
        expect(actual?.minus(expected.toString()).abs().lte(expected.times("1e-50"))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
