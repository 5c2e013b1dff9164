// Minimum amounts and milestones by cumulative amount or count, each paid once per user.
import { ALICE, BOB, LOGIN, log, paid, rules, run, SWAP } from "../test/fixtures";
import { applyEvents } from "./index";

describe("thresholds", () => {
  const minRule = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" }, minAmount: "100" }] });

  it("minimum amount 100: amount 99.99 pays nothing, amount 100 pays 100 xp, amount 250 pays 250 xp", () => {
    expect(paid(run(minRule, log([{ amount: "99.99" }, { amount: "100" }, { amount: "250" }])))).toEqual(["100", "250"]);
  });

  it("an event under the minimum does not count towards the rule's cumulative amount or count", () => {
    const result = run(minRule, log([{ amount: "50" }, { amount: "150" }]));
    expect(Object.values(result.users)[0]?.rules.swap).toMatchObject({ count: "1", amount: "150" });
  });
});

describe("milestones", () => {
  const volume = rules({
    rules: [
      {
        id: "swap",
        regEventId: SWAP,
        currency: "xp",
        base: { kind: "perUnit", points: "1" },
        milestones: [
          { id: "vol-1k", metric: "amount", level: "1000", points: "500" },
          { id: "vol-5k", metric: "amount", level: "5000", points: "2000" },
        ],
        multipliers: [{ kind: "constant", factor: "2" }],
      },
    ],
  });

  it("cumulative amount 600 + 600 crosses 1000 on the second event: base 1200 x2 then a 500 xp milestone, not multiplied", () => {
    const result = run(volume, log([{ amount: "600" }, { amount: "600" }]));
    expect(result.entries.map((e) => [e.kind, e.milestoneId, e.paid])).toEqual([
      ["base", null, "1200"],
      ["base", null, "1200"],
      ["milestone", "vol-1k", "500"],
    ]);
    expect(result.entries[2]?.key).toBe(`${result.entries[2]?.eventId}/swap/milestone/vol-1k`);
  });

  it("one event of 6000 crosses both levels at once and pays 500 + 2000 xp of milestones", () => {
    const result = run(volume, log([{ amount: "6000" }]));
    expect(result.entries.filter((e) => e.kind === "milestone").map((e) => [e.milestoneId, e.paid])).toEqual([
      ["vol-1k", "500"],
      ["vol-5k", "2000"],
    ]);
  });

  it("pays the 1000 milestone once even when the total keeps growing past it over three batches", () => {
    const first = applyEvents({ rules: volume, events: log([{ amount: "1000" }]) });
    const users = first.users;
    const second = applyEvents({ rules: volume, events: log([{ amount: "10" }], 2), users });
    const third = applyEvents({ rules: volume, events: log([{ amount: "10" }], 3), users: second.users });
    const milestones = [first, second, third].flatMap((r) => r.entries).filter((e) => e.kind === "milestone");
    expect(milestones.map((e) => e.milestoneId)).toEqual(["vol-1k"]);
  });

  it("count milestone at 3 logins pays 50 xp on the third login only", () => {
    const rv = rules({
      rules: [{ id: "login", regEventId: LOGIN, currency: "xp", milestones: [{ id: "three-logins", metric: "count", level: "3", points: "50" }] }],
    });
    const result = run(rv, log([{ regEventId: LOGIN }, { regEventId: LOGIN }, { regEventId: LOGIN }, { regEventId: LOGIN }]));
    expect(result.entries.map((e) => [e.seq, e.kind, e.paid])).toEqual([["3", "milestone", "50"]]);
  });

  it("counts milestones per user: Alice's two swaps do not bring Bob closer to 2 swaps", () => {
    const rv = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", milestones: [{ id: "two", metric: "count", level: "2", points: "5" }] }] });
    const result = run(rv, log([{}, {}, { userId: BOB }]));
    expect(result.entries.map((e) => [e.userId, e.seq])).toEqual([[ALICE, "2"]]);
  });
});
