// The position tracker: statuses after any sequence of mints, burns, transfers and tick moves equal a brute-force check.
import type { IndexerEvent } from "@pointwise/indexer-engine";
import fc from "fast-check";
import { inRange, PositionBook } from "./book";

const NULL = "0x0000000000000000000000000000000000000000";
const owners = ["0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000b2", NULL];
const asset = (id: bigint) => `0x${id.toString(16).padStart(40, "0")}`;

describe("inRange", () => {
  it("is tickLower <= tick < tickUpper, and false before the pool's tick is known", () => {
    expect([inRange(-60, 60, -60), inRange(-60, 60, 59), inRange(-60, 60, 60), inRange(-60, 60, -61), inRange(-60, 60, undefined)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("PositionBook", () => {
  it("emits the holder's status before the liquidity it gains, a balance only for non-zero liquidity, nothing for the null owner", () => {
    const book = new PositionBook();
    expect(book.moveTick(0)).toEqual([]);
    const a = "0x00000000000000000000000000000000000000a1";
    expect(book.add({ tokenId: 1n, asset: asset(1n), tickLower: 0, tickUpper: 10, owner: a, liquidity: 5n })).toEqual([
      { type: "positionStatusChange", user: a, asset: asset(1n), activity: "hold", active: true },
      { type: "balanceDelta", user: a, asset: asset(1n), activity: "hold", amount: "5" },
    ]);
    expect(book.add({ tokenId: 2n, asset: asset(2n), tickLower: 10, tickUpper: 20, owner: a, liquidity: 0n })).toEqual([
      { type: "positionStatusChange", user: a, asset: asset(2n), activity: "hold", active: false },
    ]);
    expect(book.add({ tokenId: 3n, asset: asset(3n), tickLower: 10, tickUpper: 20, owner: NULL, liquidity: 7n })).toEqual([]);
    expect(book.changeLiquidity(1n, 0n)).toEqual([]);
    expect(book.changeLiquidity(9n, 1n)).toEqual([]);
    expect(book.changeLiquidity(1n, -2n)).toEqual([{ type: "balanceDelta", user: a, asset: asset(1n), activity: "hold", amount: "-2" }]);
    expect([book.size, book.get(1n)?.liquidity, book.tick]).toEqual([3, 3n, 0]);
    // Removing one position of a shared boundary keeps the other one's boundary.
    book.remove(3n);
    book.remove(3n);
    expect(book.moveTick(10).map((e) => e.type === "positionStatusChange" && [e.asset, e.active])).toEqual([
      [asset(1n), false],
      [asset(2n), true],
    ]);
  });

  it("positions added before the tick is known are inactive, and the first tick gives each its status", () => {
    const book = new PositionBook();
    const a = "0x00000000000000000000000000000000000000a1";
    expect(book.add({ tokenId: 1n, asset: asset(1n), tickLower: -5, tickUpper: 5, owner: a, liquidity: 1n })[0]).toMatchObject({ active: false });
    book.add({ tokenId: 2n, asset: asset(2n), tickLower: 5, tickUpper: 9, owner: a, liquidity: 1n });
    expect(book.moveTick(0)).toEqual([{ type: "positionStatusChange", user: a, asset: asset(1n), activity: "hold", active: true }]);
  });

  type Op =
    | { kind: "add"; lo: number; width: number; owner: number; liquidity: number }
    | { kind: "remove" | "transfer"; pick: number; owner: number }
    | { kind: "tick"; tick: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant("add" as const),
      lo: fc.integer({ min: -8, max: 8 }),
      width: fc.integer({ min: 1, max: 6 }),
      owner: fc.nat(2),
      liquidity: fc.nat(3),
    }),
    fc.record({ kind: fc.constantFrom("remove" as const, "transfer" as const), pick: fc.nat(20), owner: fc.nat(2) }),
    fc.record({ kind: fc.constant("tick" as const), tick: fc.integer({ min: -10, max: 12 }) }),
    fc.record({ kind: fc.constant("tick" as const), tick: fc.integer({ min: -10, max: 12 }) }),
  );

  it("after every tick move, exactly the positions whose in-range answer changed get one status event, in token id order", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const book = new PositionBook();
        // The model: each position's range, owner and last status, checked by brute force over all positions.
        const model = new Map<bigint, { lo: number; hi: number; owner: string; active: boolean }>();
        let tick: number | undefined;
        let next = 1n;
        for (const o of ops) {
          if (o.kind === "add") {
            const id = next++;
            const owner = owners[o.owner] as string;
            const events = book.add({ tokenId: id, asset: asset(id), tickLower: o.lo, tickUpper: o.lo + o.width, owner, liquidity: BigInt(o.liquidity) });
            const active = tick !== undefined && o.lo <= tick && tick < o.lo + o.width;
            model.set(id, { lo: o.lo, hi: o.lo + o.width, owner, active });
            const expected: IndexerEvent[] =
              owner === NULL
                ? []
                : [
                    { type: "positionStatusChange", user: owner, asset: asset(id), activity: "hold", active },
                    ...(o.liquidity > 0
                      ? [{ type: "balanceDelta" as const, user: owner, asset: asset(id), activity: "hold", amount: String(o.liquidity) }]
                      : []),
                  ];
            expect(events).toEqual(expected);
          } else if (o.kind !== "tick") {
            const ids = [...model.keys()];
            const id = ids[o.pick % Math.max(ids.length, 1)];
            if (id === undefined) continue;
            if (o.kind === "remove") {
              book.remove(id);
              model.delete(id);
            } else {
              const to = owners[o.owner] as string;
              book.transfer(id, to);
              (model.get(id) as { owner: string }).owner = to;
            }
          } else if (o.kind === "tick") {
            const events = book.moveTick(o.tick);
            const expected: IndexerEvent[] = [];
            for (const [id, p] of [...model].sort(([a], [b]) => (a < b ? -1 : 1))) {
              const active = p.lo <= o.tick && o.tick < p.hi;
              if (active === p.active) continue;
              p.active = active;
              if (p.owner !== NULL) expected.push({ type: "positionStatusChange", user: p.owner, asset: asset(id), activity: "hold", active });
            }
            tick = o.tick;
            expect(events).toEqual(expected);
          }
          for (const [id, p] of model) expect(book.get(id)?.active).toBe(p.active);
          expect(book.size).toBe(model.size);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a transfer of a position it does not track changes nothing", () => {
    const book = new PositionBook();
    expect(book.transfer(1n, owners[0] as string)).toEqual([]);
    expect(book.size).toBe(0);
  });

  it("when one tick move changes several positions, their status events come in token id order, not in boundary order", () => {
    const book = new PositionBook();
    const a = owners[0] as string;
    book.moveTick(-20);
    // Lower boundaries -10 (token 3), -5 (token 2) and 0 (token 1): a scan from -20 up to 2 meets them as 3, 2, 1.
    book.add({ tokenId: 1n, asset: asset(1n), tickLower: 0, tickUpper: 20, owner: a, liquidity: 1n });
    book.add({ tokenId: 2n, asset: asset(2n), tickLower: -5, tickUpper: 20, owner: a, liquidity: 1n });
    book.add({ tokenId: 3n, asset: asset(3n), tickLower: -10, tickUpper: 20, owner: a, liquidity: 1n });
    expect(book.moveTick(2).map((e) => e.type === "positionStatusChange" && [e.asset, e.active])).toEqual([
      [asset(1n), true],
      [asset(2n), true],
      [asset(3n), true],
    ]);
  });
});
