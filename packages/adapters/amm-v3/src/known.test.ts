// The stored list of a pool's position NFTs on the real Redis state store: appends, burns, reload, records past the count.
import { testRuntime } from "../test/support";
import { decodeKnown, encodeKnown, KnownPositions } from "./known";

let close: () => Promise<void> = async () => {};
afterEach(async () => close());

describe("KnownPositions", () => {
  it("encodes a record as tokenId:tickLower:tickUpper[:burnBlock] and refuses anything else", () => {
    expect(encodeKnown({ tokenId: 12n, tickLower: -887220, tickUpper: 60 })).toBe("12:-887220:60");
    expect(encodeKnown({ tokenId: 12n, tickLower: -1, tickUpper: 0, burnedAt: 99 })).toBe("12:-1:0:99");
    expect(decodeKnown("12:-1:0:99")).toEqual({ tokenId: 12n, tickLower: -1, tickUpper: 0, burnedAt: 99 });
    expect(decodeKnown("340282366920938463463374607431768211455:5:6")).toEqual({ tokenId: 2n ** 128n - 1n, tickLower: 5, tickUpper: 6 });
    for (const bad of ["", "1:2", "1:2:x", "-1:2:3", "1:2:3:-4", "[1,2,3]"]) expect(decodeKnown(bad)).toBeUndefined();
  });

  it("writes one key per new position and the count, rewrites only the burned one's key, and reloads in batches", async () => {
    const env = await testRuntime();
    close = env.close;
    const store = env.runtime.store;
    const known = new KnownPositions(store, "p");
    for (let i = 1; i <= 150; i++) await known.add(BigInt(i), -i, i);
    await known.add(5n, -5, 5); // already known: nothing written
    await known.burn(7n, 300);
    await known.burn(7n, 301); // the first burn block stays
    await known.burn(999n, 300); // unknown token: nothing
    expect([await store.get("p:n"), await store.get("p:0"), await store.get("p:6"), await store.get("p:149"), await store.get("p:150")]).toEqual([
      "150",
      "1:-1:1",
      "7:-7:7:300",
      "150:-150:150",
      undefined,
    ]);
    const reloaded = new KnownPositions(store, "p");
    expect(await reloaded.load(64)).toBe(150);
    // Loading again adds no position twice.
    expect([await reloaded.load(64), reloaded.size]).toEqual([150, 150]);
    expect(reloaded.values().map((p) => p.tokenId)).toEqual(Array.from({ length: 150 }, (_, i) => BigInt(i + 1)));
    expect(reloaded.values()[6]).toEqual({ tokenId: 7n, tickLower: -7, tickUpper: 7, burnedAt: 300 });
    // Appending after a reload continues the list.
    await reloaded.add(151n, 0, 1);
    expect([await store.get("p:n"), await store.get("p:150")]).toEqual(["151", "151:0:1"]);
  });

  it("ignores a record left past the count by a crash between its two writes; the replayed mint writes it again", async () => {
    const env = await testRuntime();
    close = env.close;
    const store = env.runtime.store;
    await store.set("p:n", "1");
    await store.set("p:0", "1:0:10");
    await store.set("p:1", "2:0:10"); // written, but the count was not
    const known = new KnownPositions(store, "p");
    expect(await known.load()).toBe(1);
    expect(known.values().map((p) => p.tokenId)).toEqual([1n]);
    await known.add(2n, 0, 10);
    expect([await store.get("p:n"), await store.get("p:1")]).toEqual(["2", "2:0:10"]);
    expect(await new KnownPositions(store, "p").load()).toBe(2);
  });

  it("an empty store loads nothing; a missing record below the count fails with adapter-failed", async () => {
    const env = await testRuntime();
    close = env.close;
    const store = env.runtime.store;
    expect(await new KnownPositions(store, "q").load()).toBe(0);
    await store.set("q:n", "2");
    await store.set("q:0", "1:0:10");
    await expect(new KnownPositions(store, "q").load()).rejects.toMatchObject({
      code: "adapter-failed",
      message: "amm-v3: stored position record q:1 is unreadable (missing)",
      details: { key: "q:1", value: undefined },
    });
    await store.set("q:1", "x");
    await expect(new KnownPositions(store, "q").load()).rejects.toMatchObject({ details: { key: "q:1", value: "x" } });
  });
});
