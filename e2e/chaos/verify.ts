// The chaos suite's final checks: the event log against what was acknowledged, and every score read back through read-api and admin-api.
import { setTimeout as sleep } from "node:timers/promises";
import Decimal from "decimal.js";
import { type ExpectedScores, type SentEvent, USER_COUNT, xpText } from "./model";
import type { TrafficBook } from "./traffic";

/** A row of the event log as the checks read it. */
export interface LoggedRow {
  id: string;
  cents: string;
}

/** What the log holds compared with what the clients were told. */
export interface LogAudit {
  /** The events that count: acknowledged ones, and refused-but-stored ones traced back to their request. */
  counted: SentEvent[];
  storedDespiteRefusal: number;
  problems: string[];
}

/**
 * Compares the log with the book: every acknowledged id is logged (exactly once: the id is unique),
 * and every logged event that no acknowledgement names must be one the client may not have been
 * told about (bus-unavailable, no answer); one refused before publishing is a problem.
 */
export function auditLog(rows: LoggedRow[], book: TrafficBook): LogAudit {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
  const missing = [...book.acked.keys()].filter((id) => !seen.has(id));
  if (missing.length > 0) problems.push(`${missing.length} acknowledged events are not in the event log (lost), e.g. ${missing.slice(0, 5).join(", ")}`);
  const twice = [...seen].filter(([, n]) => n > 1);
  if (twice.length > 0) problems.push(`${twice.length} event ids are logged more than once, e.g. ${twice.slice(0, 5).join(", ")}`);
  const counted: SentEvent[] = [...book.acked.values()];
  let storedDespiteRefusal = 0;
  const strays: string[] = [];
  for (const r of rows) {
    if (book.acked.has(r.id)) continue;
    const cents = BigInt(r.cents);
    const maybe = book.ambiguous.get(cents);
    if (maybe) {
      storedDespiteRefusal += 1;
      counted.push(maybe);
      continue;
    }
    const refused = book.refused.get(cents);
    strays.push(
      refused
        ? `${r.id} (amount ${xpText(cents)}, refused with ${refused.code}: nothing should have been stored)`
        : `${r.id} (amount ${xpText(cents)}, never sent)`,
    );
  }
  if (strays.length > 0) problems.push(`${strays.length} logged events were never acknowledged: ${strays.slice(0, 5).join("; ")}`);
  return { counted, storedDespiteRefusal, problems };
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field and compared with expected values
type Json = any;

async function getJson(url: string, headers: Record<string, string>): Promise<{ status: number; body: Json }> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  } catch (err) {
    return { status: 0, body: String(err) };
  }
}

/** Where and how the checks read scores back. */
export interface ScoreReaders {
  readUrl: string;
  adminUrl: string;
  apiKey: string;
  adminToken: string;
  campaignId: string;
  userIds: string[];
}

/** Differences between one read-back of every score and the expected values; empty when all match. */
async function scoreDiffs(r: ScoreReaders, expected: ExpectedScores[]): Promise<string[]> {
  const diffs: string[] = [];
  const num = (cents: bigint) => Number(xpText(cents));
  for (let u = 0; u < USER_COUNT; u++) {
    const want = expected[u]!;
    const userId = r.userIds[u]!;
    const wantXp = { score: num(want.xpScoreCents), referral_score: num(want.xpReferralCents), total: num(want.xpScoreCents + want.xpReferralCents) };
    const wantGems = Number(want.gems);

    const read = await getJson(`${r.readUrl}/users/${userId}/scores`, { "x-api-key": r.apiKey });
    if (read.status !== 200) diffs.push(`read-api GET /users/${userId}/scores answered ${read.status}: ${JSON.stringify(read.body).slice(0, 200)}`);
    else {
      const xp = read.body.scores?.xp;
      const gems = read.body.scores?.gems;
      if (xp?.score !== wantXp.score || xp?.referral_score !== wantXp.referral_score || xp?.total !== wantXp.total)
        diffs.push(`read-api user ${u} xp ${JSON.stringify(xp)}, expected ${JSON.stringify(wantXp)}`);
      if (gems?.score !== wantGems || gems?.total !== wantGems) diffs.push(`read-api user ${u} gems ${JSON.stringify(gems)}, expected score ${wantGems}`);
    }

    const admin = await getJson(`${r.adminUrl}/api/campaigns/${r.campaignId}/users/${userId}`, { authorization: `Bearer ${r.adminToken}` });
    if (admin.status !== 200) diffs.push(`admin-api GET user ${userId} answered ${admin.status}: ${JSON.stringify(admin.body).slice(0, 200)}`);
    else {
      const row = (c: string) => (admin.body.scores as Json[]).find((s) => s.currency === c) ?? { score: "0", referral_score: "0", total: "0" };
      const xp = row("xp");
      const gems = row("gems");
      const same = (a: string, b: string) => new Decimal(a).equals(new Decimal(b));
      if (
        !same(xp.score, xpText(want.xpScoreCents)) ||
        !same(xp.referral_score, xpText(want.xpReferralCents)) ||
        !same(xp.total, xpText(want.xpScoreCents + want.xpReferralCents))
      )
        diffs.push(`admin-api user ${u} xp ${JSON.stringify(xp)}, expected score ${xpText(want.xpScoreCents)} referral ${xpText(want.xpReferralCents)}`);
      if (!same(gems.score, String(want.gems))) diffs.push(`admin-api user ${u} gems ${JSON.stringify(gems)}, expected ${want.gems}`);
    }
  }

  const board = await getJson(`${r.readUrl}/leaderboard?campaign_id=${r.campaignId}&limit=1000`, {});
  if (board.status !== 200) diffs.push(`read-api GET /leaderboard answered ${board.status}: ${JSON.stringify(board.body).slice(0, 200)}`);
  else {
    const byUser = new Map<string, Json>((board.body.entries as Json[]).map((e) => [e.user_id, e]));
    for (let u = 0; u < USER_COUNT; u++) {
      const want = expected[u]!;
      const entry = byUser.get(r.userIds[u]!);
      const total = num(want.xpScoreCents + want.xpReferralCents);
      if (!entry) {
        if (total > 0) diffs.push(`leaderboard lacks user ${u} (expected xp total ${total})`);
        continue;
      }
      if (entry.scores.xp.total !== total || entry.scores.gems.score !== Number(want.gems))
        diffs.push(`leaderboard user ${u}: ${JSON.stringify(entry.scores)}, expected xp total ${total}, gems ${want.gems}`);
    }
  }
  return diffs;
}

/** Reads every score back until all match or `deadlineMs` passes (caches expire within a second); returns the last differences. */
export async function checkScores(r: ScoreReaders, expected: ExpectedScores[], deadlineMs: number): Promise<string[]> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const diffs = await scoreDiffs(r, expected);
    if (diffs.length === 0 || Date.now() > deadline) return diffs;
    await sleep(500);
  }
}
