// The pricer's immutable chain facts (token decimals, pool tokens): read once, kept in memory and in the state store under pricer:<key>.
import { AbiCoder } from "ethers";
import type { ChainCalls, KeyValueStore } from "../adapter";
import type { StateStore } from "../state/store";
import { capturingLogger, testStore } from "../testing/fixtures";
import { Pricer } from "./pricer";

const coder = AbiCoder.defaultAbiCoder();
const DECIMALS = "0x313ce567";
const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
let store: StateStore;

beforeAll(async () => {
  store = await testStore("pricer-facts");
});
afterAll(async () => {
  await store.clearIndexer();
  await store.close();
});

/** The state store's key-value store, recording each key read from it. */
function countingFacts(): KeyValueStore & { gets: string[] } {
  const gets: string[] = [];
  return {
    gets,
    get: (key) => {
      gets.push(key);
      return store.kv.get(key);
    },
    set: (key, value) => store.kv.set(key, value),
  };
}

function pricer(facts: KeyValueStore, chain: ChainCalls = { call: () => Promise.reject(new Error("no chain in this test")) }) {
  return new Pricer({ rules: [], pricingRange: undefined, chain, labels: store.labels, facts, market: undefined, logger: capturingLogger().logger });
}

describe("immutable chain facts", () => {
  it("are read once, then kept in memory and in the state store under pricer:<key>", async () => {
    const facts = countingFacts();
    const p = pricer(facts);
    let reads = 0;
    const read = async () => {
      reads++;
      return "0xabc";
    };
    expect(await p.cachedFact("once:a", read)).toBe("0xabc");
    expect(await store.kv.get("pricer:once:a")).toBe("0xabc");
    expect(await p.cachedFact("once:a", read)).toBe("0xabc");
    expect(reads).toBe(1);
    // The second answer came from memory, without asking the state store.
    expect(facts.gets).toStrictEqual(["pricer:once:a"]);
  });

  it("are taken from the state store by a pricer started later, without reading them again", async () => {
    await pricer(store.kv).cachedFact("later:a", async () => "first");
    const facts = countingFacts();
    const p = pricer(facts);
    const read = jest.fn(async () => "second");
    expect(await p.cachedFact("later:a", read)).toBe("first");
    expect(await p.cachedFact("later:a", read)).toBe("first");
    expect(read).not.toHaveBeenCalled();
    expect(facts.gets).toStrictEqual(["pricer:later:a"]);
  });

  it("are kept apart by key", async () => {
    const p = pricer(store.kv);
    expect(await p.cachedFact("apart:a", async () => "1")).toBe("1");
    expect(await p.cachedFact("apart:b", async () => "2")).toBe("2");
    expect(await p.cachedFact("apart:a", async () => "3")).toBe("1");
    expect([await store.kv.get("pricer:apart:a"), await store.kv.get("pricer:apart:b")]).toStrictEqual(["1", "2"]);
  });

  it("are not kept when reading them fails, so the next lookup reads again", async () => {
    const p = pricer(store.kv);
    await expect(p.cachedFact("failed:a", () => Promise.reject(new Error("connection lost")))).rejects.toThrow("connection lost");
    expect(await store.kv.get("pricer:failed:a")).toBeUndefined();
    expect(await p.cachedFact("failed:a", async () => "ok")).toBe("ok");
    expect(await store.kv.get("pricer:failed:a")).toBe("ok");
  });
});

describe("token decimals", () => {
  it("are read by decimals() at the latest block once per token and kept under pricer:decimals:<token>", async () => {
    const calls: string[] = [];
    const chain: ChainCalls = {
      call: async (to, data, block) => {
        calls.push(`${to} ${data} ${block}`);
        if (data !== DECIMALS) throw new Error(`unexpected call ${data}`);
        return coder.encode(["uint8"], [to === USDC ? 6 : 18]);
      },
    };
    const p = pricer(store.kv, chain);
    expect(await p.decimals(USDC)).toBe(6);
    expect(await p.decimals(WETH)).toBe(18);
    expect(await p.decimals(USDC)).toBe(6);
    expect(calls).toStrictEqual([`${USDC} ${DECIMALS} undefined`, `${WETH} ${DECIMALS} undefined`]);
    expect(await store.kv.get(`pricer:decimals:${USDC}`)).toBe("6");
    expect(await store.kv.get(`pricer:decimals:${WETH}`)).toBe("18");
    // A pricer started later reads them from the state store.
    expect(await pricer(store.kv, chain).decimals(WETH)).toBe(18);
    expect(calls).toHaveLength(2);
  });
});
