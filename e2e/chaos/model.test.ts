// The chaos suite's expected-score arithmetic on a few events worked out by hand.
import { centsToAmount, expectedScores, referrerOf } from "./model";

it("pays 2 xp per unit of a trade, 5 gems per check-in, and 10% of a referee's xp (rounded down to the cent) to the referrer", () => {
  expect([referrerOf(0), referrerOf(1), referrerOf(3), referrerOf(4), referrerOf(7)]).toEqual([null, 0, 0, null, 4]);
  const scores = expectedScores([
    { user: 1, kind: "trade", cents: 1234n }, // 12.34 -> 24.68 xp; referrer 0 gets 2.468 -> 2.46
    { user: 1, kind: "checkin", cents: 100n }, // 5 gems, nothing for the referrer
    { user: 0, kind: "trade", cents: 101n }, // 1.01 -> 2.02 xp, user 0 has no referrer
    { user: 5, kind: "trade", cents: 999n }, // 9.99 -> 19.98 xp; referrer 4 gets 1.998 -> 1.99
  ]);
  expect(scores[1]).toEqual({ xpScoreCents: 2468n, xpReferralCents: 0n, gems: 5n });
  expect(scores[0]).toEqual({ xpScoreCents: 202n, xpReferralCents: 246n, gems: 0n });
  expect(scores[4]).toEqual({ xpScoreCents: 0n, xpReferralCents: 199n, gems: 0n });
  expect(scores[5]).toEqual({ xpScoreCents: 1998n, xpReferralCents: 0n, gems: 0n });
  expect([centsToAmount(5n), centsToAmount(100n), centsToAmount(12345n)]).toEqual(["0.05", "1.00", "123.45"]);
});
