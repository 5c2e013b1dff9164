// Start-up checks on an in-memory chain: chain id and contract code, the start block search, and a start past the head.
import { BaseError } from "@pointwise/errors";
import fc from "fast-check";
import { checkContracts, checkFromBlock, findFromBlock } from "./start";
import { RpcResponseError } from "./transport";

/**
 * A chain serving `id` where each contract of `deployed` has code from its block on; latest is block `head`.
 * Code lookups outside [0, head] fail loudly, and so does a search that asks too often.
 */
function chain(id: number, deployed: Record<string, number>, head = 1_000, empty = "0x") {
  const lookups: [string, number | undefined][] = [];
  return {
    lookups,
    chainId: async () => id,
    async code(address: string, block?: number) {
      lookups.push([address, block]);
      if (lookups.length > 200) throw new Error("too many lookups");
      const at = block ?? head;
      if (at < 0 || at > head || !Number.isInteger(at)) throw new Error(`no block ${at}`);
      const since = deployed[address];
      return since !== undefined && at >= since ? "0x6080" : empty;
    },
  };
}

/** Waits a turn of the timers, so a rejection nobody handles would fail the test. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("checkContracts", () => {
  it("passes when the endpoint serves the chain and every contract has code", async () => {
    const c = chain(1, { "0xa": 5, "0xb": 9 });
    await expect(checkContracts(c, 1, ["0xa", "0xb"])).resolves.toBeUndefined();
    expect(c.lookups).toEqual([
      ["0xa", undefined],
      ["0xb", undefined],
    ]);
  });

  it("fails with Contract Not Found naming both chain ids when the endpoint serves another chain", async () => {
    const err = await checkContracts(chain(10, { "0xa": 0 }), 1, ["0xa"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BaseError);
    expect((err as BaseError).code).toBe("contract-not-found");
    expect((err as BaseError).message).toBe("Contract Not Found");
    expect((err as BaseError).details).toEqual({ reason: "RPC serves chain 10, config says 1", chainId: 1, served: 10 });
  });

  it("judges the chain id before any missing contract", async () => {
    const err = await checkContracts(chain(10, {}), 1, ["0xa"]).catch((e: unknown) => e);
    expect((err as BaseError).details).toEqual({ reason: "RPC serves chain 10, config says 1", chainId: 1, served: 10 });
  });

  it("names the first contract without code, whether the node answers 0x or an empty string", async () => {
    for (const empty of ["0x", ""]) {
      const err = await checkContracts(chain(1, { "0xa": 0 }, 1_000, empty), 1, ["0xa", "0xb", "0xc"]).catch((e: unknown) => e);
      expect((err as BaseError).code).toBe("contract-not-found");
      expect((err as BaseError).message).toBe("Contract Not Found");
      expect((err as BaseError).details).toEqual({ reason: "no contract at 0xb on chain 1", address: "0xb", chainId: 1 });
    }
  });

  it("asks for every contract's code before the chain id has answered", async () => {
    const asked: string[] = [];
    let answer: (id: number) => void = () => undefined;
    const reader = {
      chainId: () => new Promise<number>((resolve) => (answer = resolve)),
      code: async (address: string) => {
        asked.push(address);
        return "0x60";
      },
    };
    const check = checkContracts(reader, 7, ["0xa", "0xb", "0xc"]);
    await settle();
    expect(asked).toEqual(["0xa", "0xb", "0xc"]);
    answer(7);
    await expect(check).resolves.toBeUndefined();
  });

  it("fails with a code lookup's own error when the chain id is right", async () => {
    const reader = {
      chainId: async () => 1,
      code: async (address: string) => {
        if (address === "0xb") throw new Error("timeout reading 0xb");
        return "0x60";
      },
    };
    await expect(checkContracts(reader, 1, ["0xa", "0xb"])).rejects.toThrow("timeout reading 0xb");
  });

  it("leaves failed code lookups quiet when the chain id check fails first", async () => {
    const reader = {
      chainId: async () => 2,
      code: async () => {
        throw new Error("timeout");
      },
    };
    const err = await checkContracts(reader, 1, ["0xa", "0xb"]).catch((e: unknown) => e);
    expect((err as BaseError).code).toBe("contract-not-found");
    // A rejection left unhandled would fail this test here.
    await settle();
  });

  it("only checks the chain id when there are no contracts", async () => {
    await expect(checkContracts(chain(3, {}), 3, [])).resolves.toBeUndefined();
  });
});

describe("findFromBlock", () => {
  it("finds the deployment block of a contract in at most log2(head) lookups", async () => {
    const c = chain(1, { "0xa": 37 }, 100);
    expect(await findFromBlock(c, ["0xa"], 100)).toBe(37);
    // 101 candidate blocks: 7 halvings.
    expect(c.lookups.length).toBeLessThanOrEqual(7);
    expect(c.lookups.every(([address]) => address === "0xa")).toBe(true);
  });

  it("finds the latest deployment among the contracts", async () => {
    expect(await findFromBlock(chain(1, { "0xa": 40, "0xb": 812, "0xc": 3 }, 1_000), ["0xa", "0xb", "0xc"], 1_000)).toBe(812);
    expect(await findFromBlock(chain(1, { "0xa": 812, "0xb": 40 }, 1_000), ["0xa", "0xb"], 1_000)).toBe(812);
  });

  it("finds block 0 and the head itself at the ends of the chain", async () => {
    expect(await findFromBlock(chain(1, { "0xa": 0 }, 64), ["0xa"], 64)).toBe(0);
    expect(await findFromBlock(chain(1, { "0xa": 64 }, 64), ["0xa"], 64)).toBe(64);
    expect(await findFromBlock(chain(1, { "0xa": 63 }, 64, ""), ["0xa"], 64)).toBe(63);
  });

  it("starts at block 0 with no contracts", async () => {
    expect(await findFromBlock(chain(1, {}), [], 500)).toBe(0);
  });

  it("finds the latest deployment on any chain (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 5_000 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }), async (head, wheres) => {
        const deployed = Object.fromEntries(wheres.map((w, i) => [`0x${i}`, Math.floor(w * head)]));
        const c = chain(1, deployed, head);
        expect(await findFromBlock(c, Object.keys(deployed), head)).toBe(Math.max(...Object.values(deployed)));
        expect(c.lookups.length).toBeLessThanOrEqual(wheres.length * Math.ceil(Math.log2(head + 1)));
      }),
      { numRuns: 150 },
    );
  });

  it("fails with fromBlock Not Found when the node cannot look up historical code", async () => {
    const refusal = new RpcResponseError(-32000, "missing trie node");
    const reader = {
      code: async (address: string) => {
        if (address === "0xb") throw refusal;
        return "0x60";
      },
    };
    const err = await findFromBlock(reader, ["0xa", "0xb"], 100).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BaseError);
    expect((err as BaseError).code).toBe("from-block-not-found");
    expect((err as BaseError).message).toBe("fromBlock Not Found");
    expect((err as BaseError).cause).toBe(refusal);
    expect((err as BaseError).details).toEqual({ reason: "the RPC cannot look up historical contract code; set range.fromBlock", address: "0xb" });
  });

  it("passes any other failure through unchanged", async () => {
    const failure = new Error("connection reset");
    const reader = {
      code: async () => {
        throw failure;
      },
    };
    await expect(findFromBlock(reader, ["0xa"], 100)).rejects.toBe(failure);
  });
});

describe("checkFromBlock", () => {
  it("accepts a start block up to the head", () => {
    expect(() => checkFromBlock(0, 100)).not.toThrow();
    expect(() => checkFromBlock(100, 100)).not.toThrow();
  });

  it("fails with fromBlock Not Found for a start block beyond the head", () => {
    let err: unknown;
    try {
      checkFromBlock(101, 100);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BaseError);
    expect((err as BaseError).code).toBe("from-block-not-found");
    expect((err as BaseError).message).toBe("fromBlock Not Found");
    expect((err as BaseError).details).toEqual({ reason: "range.fromBlock 101 is beyond the chain head 100", fromBlock: 101, head: 100 });
  });
});
