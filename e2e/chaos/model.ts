// The chaos campaign's rules and users, and the expected scores written out as plain cent arithmetic.

/** How many users the chaos traffic spreads over; every fourth one refers the next three. */
export const USER_COUNT = 24;

/** xp paid per unit of a trade's amount (perUnit rule), in whole xp. */
export const XP_PER_UNIT = 2n;
/** gems paid per check-in (fixed rule). */
export const GEMS_PER_CHECKIN = 5n;
/** The referrer's share of a referee's paid xp, in tenths. */
export const REFERRAL_TENTHS = 1n;

/** The two event types of the campaign. */
export type EventKind = "trade" | "checkin";

/** One event as the test sent it: who, which kind, and its amount in cents (unique across the run). */
export interface SentEvent {
  user: number;
  kind: EventKind;
  cents: bigint;
}

/** Index of the user who refers `user`, or null for a referrer (every fourth user). */
export function referrerOf(user: number): number | null {
  return user % 4 === 0 ? null : user - (user % 4);
}

/** Discord id of a chaos user (digits, no leading zero, as the identity format requires). */
export function accountIdOf(user: number): string {
  return String(710_000_000_000 + user);
}

/** Cents as the decimal string ingest takes: 1234n -> "12.34". */
export function centsToAmount(cents: bigint): string {
  return `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
}

/**
 * The rule version the chaos campaign runs: trades pay 2 xp per unit (xp has 2 decimals), check-ins
 * 5 gems each (0 decimals), referrers get 10% of their referees' xp rounded down to the cent.
 */
export function ruleDocument(campaignId: string, regEventIds: Record<EventKind, string>): unknown {
  return {
    campaignId,
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "XP", decimals: 2 }, gems: { name: "Gems", decimals: 0 } },
    rules: [
      { id: "trade", regEventId: regEventIds.trade, currency: "xp", base: { kind: "perUnit", points: String(XP_PER_UNIT) } },
      { id: "checkin", regEventId: regEventIds.checkin, currency: "gems", base: { kind: "fixed", points: String(GEMS_PER_CHECKIN) } },
    ],
    referral: { shares: { xp: `0.${REFERRAL_TENTHS}` } },
  };
}

/** A user's expected scores in the smallest unit of each currency (xp cents, whole gems). */
export interface ExpectedScores {
  xpScoreCents: bigint;
  xpReferralCents: bigint;
  gems: bigint;
}

/**
 * Expected scores of every user from the events that count, computed from the rule document's
 * arithmetic by hand: a trade of c cents pays 2c xp cents to its user and floor(2c / 10) xp cents
 * to the user's referrer; a check-in pays 5 gems.
 */
export function expectedScores(events: Iterable<SentEvent>): ExpectedScores[] {
  const out = Array.from({ length: USER_COUNT }, () => ({ xpScoreCents: 0n, xpReferralCents: 0n, gems: 0n }));
  for (const e of events) {
    const row = out[e.user]!;
    if (e.kind === "checkin") {
      row.gems += GEMS_PER_CHECKIN;
      continue;
    }
    const paid = XP_PER_UNIT * e.cents;
    row.xpScoreCents += paid;
    const referrer = referrerOf(e.user);
    if (referrer !== null) out[referrer]!.xpReferralCents += (paid * REFERRAL_TENTHS) / 10n;
  }
  return out;
}

/** xp cents as the exact decimal text of a score: 12345n -> "123.45". */
export function xpText(cents: bigint): string {
  return centsToAmount(cents);
}
