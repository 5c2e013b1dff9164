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

describe("token decimals that no ERC-20 answers", () => {
  const answering = (answers: Record<string, string | Error>) => {
    const calls: string[] = [];
    const chain: ChainCalls = {
      call: async (to) => {
        calls.push(to);
        const answer = answers[to];
        if (answer === undefined) throw new Error(`unexpected call to ${to}`);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    };
    return { chain, calls };
  };
  // Each test its own tokens: decimals read by one are kept in the state store.
  const token = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

  it("reads 0 and 77, the bound adapters use, as they are", async () => {
    const [top, zero] = [token(0xd1), token(0xd2)];
    const { chain } = answering({ [top]: coder.encode(["uint256"], [77n]), [zero]: coder.encode(["uint256"], [0n]) });
    const p = pricer(store.kv, chain);
    expect(await p.decimals(top)).toBe(77);
    expect(await p.decimals(zero)).toBe(0);
  });

  it("refuses an answer above 77 with feed-config-invalid naming the token and the exact answer, and caches nothing", async () => {
    // 256 and 2^255 used to be decoded as uint8, which masks them to 0; 2^64 as a JS number prints 18446744073709552000.
    const cases = [
      [78n, "78"],
      [256n, "256"],
      [2n ** 64n, "18446744073709551616"],
      [2n ** 255n, "57896044618658097711785492504343953926634992332820282019728792003956564819968"],
    ] as const;
    for (const [i, [answer, printed]] of cases.entries()) {
      const asset = token(0xe0 + i);
      const { chain, calls } = answering({ [asset]: coder.encode(["uint256"], [answer]) });
      const p = pricer(store.kv, chain);
      await expect(p.decimals(asset)).rejects.toMatchObject({
        code: "feed-config-invalid",
        message: `pricing: token ${asset} answered decimals() with ${printed}, which no ERC-20 uses`,
        details: { token: asset },
      });
      expect(await store.kv.get(`pricer:decimals:${asset}`)).toBeUndefined();
      // Not cached in memory either: the next lookup asks the chain again.
      await expect(p.decimals(asset)).rejects.toMatchObject({ code: "feed-config-invalid" });
      expect(calls).toStrictEqual([asset, asset]);
    }
  });

  it("rethrows a call that fails as it is, not as a config error, and reads again on the next lookup", async () => {
    const asset = token(0xf1);
    const lost = new Error("connection lost");
    const answers: Record<string, string | Error> = { [asset]: lost };
    const { chain, calls } = answering(answers);
    const p = pricer(store.kv, chain);
    const err = await p.decimals(asset).catch((e: unknown) => e);
    expect(err).toBe(lost);
    expect(await store.kv.get(`pricer:decimals:${asset}`)).toBeUndefined();
    answers[asset] = coder.encode(["uint256"], [6n]);
    expect(await p.decimals(asset)).toBe(6);
    expect(calls).toStrictEqual([asset, asset]);
  });

  it("fails with abi-decode-failed, not a config error, for an answer that is no uint", async () => {
    const asset = token(0xf2);
    const { chain } = answering({ [asset]: "0x" });
    await expect(pricer(store.kv, chain).decimals(asset)).rejects.toMatchObject({ code: "abi-decode-failed" });
    expect(await store.kv.get(`pricer:decimals:${asset}`)).toBeUndefined();
  });
});
