// The engine's input and output types: raw log events and ledger entries with their full lineage.
import type { Multiplier } from "./schema";

/**
 * One raw event as the worker passes it from the append-only log. `seq` is the log position
 * (a bigint as a decimal string) and is what the engine orders and de-duplicates by.
 */
export interface RawEvent {
  /** The event's uuid. */
  id: string;
  /** Log position, unique per log, increasing in apply order (bigint as string). */
  seq: string;
  campaignId: string;
  userId: string;
  /** The registered event type (uuid) rules are keyed on. */
  regEventId: string;
  /** One of the spec's identity types (EVM_ADDRESS, EMAIL, ...); matched by identityType multipliers. */
  identityType: string;
  /** Raw value (count, volume): a non-negative decimal string. */
  amount: string;
  /**
   * ISO 8601 time the activity happened (event time); every time-based rule looks at this. It may
   * be earlier than events already applied (a backfill): see docs/rules.md, Event time and late events.
   */
  occurredAt: string;
  /**
   * The user's referrer as recorded in the log row when the event was logged (null or absent:
   * none). It is part of the immutable event, so a replay credits exactly the same referrer.
   */
  referrerId?: string | null;
}

/** What kind of award a ledger entry records. */
export type EntryKind = "base" | "milestone" | "referral";

/** A factor that took part in an award, and where it came from. */
export interface AppliedMultiplier {
  /** A rule multiplier kind, `tierLevel` (the multiplier a tier carries) or `referralShare`. */
  kind: Multiplier["kind"] | "tierLevel" | "referralShare";
  factor: string;
  /** Where it is configured, e.g. `rules.swap.multipliers[1]`, `currencies.xp.tiers.gold`, `referral.shares.xp`. */
  source: string;
}

/** One award with its full lineage; what the worker writes to the ledger table. */
export interface LedgerEntry {
  /** Unique per award: `<eventId>/<ruleId>/base`, `.../milestone/<id>`, each with `/referral` for the referrer's share. */
  key: string;
  eventId: string;
  seq: string;
  /** Who is paid: the event's user, or their referrer for a referral entry. */
  userId: string;
  /** Whose event caused it (equals userId except for referral entries). */
  sourceUserId: string;
  ruleId: string;
  ruleVersion: number;
  milestoneId: string | null;
  kind: EntryKind;
  currency: string;
  /** Points before multipliers: rate x amount, the fixed points, the milestone bonus, or the referee's paid points. */
  basePoints: string;
  multipliers: AppliedMultiplier[];
  /** basePoints x every factor, rounded down to the currency's decimals: what would be paid without caps. */
  points: string;
  /** The part of `points` not paid because a cap or the budget was reached. */
  capped: string;
  /** Which limits cut the award: `rule:<ruleId>:<period>`, `currency:<key>:<period>`, `budget:<key>`. */
  cappedBy: string[];
  /** What the user actually earns: points - capped. */
  paid: string;
  /** `paid` in the stored (decay-scaled) representation; equal to `paid` when the currency has no decay. */
  scaledPaid: string;
  occurredAt: string;
}

/** An event that was not applied because its user's state already covers its seq. */
export interface SkippedEvent {
  eventId: string;
  seq: string;
  userId: string;
  reason: "already-applied";
}

/** An event that can never score (malformed amount or time); it still moves the user's lastSeq on. */
export interface RejectedEvent {
  eventId: string;
  seq: string;
  userId: string;
  code: "amount-invalid" | "occurred-at-invalid";
  message: string;
}

/** An event whose occurredAt is outside the campaign window; it earned nothing and moved its user's lastSeq on. */
export interface OutsideCampaignEvent {
  eventId: string;
  seq: string;
  userId: string;
}
