// Serializers from Prisma rows to the JSON bodies admin-api answers with.
import type { Prisma } from "@pointwise/db";

// The wire shapes of admin-api: snake_case fields, ISO 8601 times, decimals as strings.

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** A campaign on the wire. */
export function campaignJson(c: Prisma.CampaignGetPayload<true>) {
  return {
    id: c.id,
    name: c.name,
    currencies: c.currencies as Record<string, string>,
    primary_currency: c.primaryCurrency,
    starts_at: iso(c.startsAt),
    ends_at: iso(c.endsAt),
    archived_at: iso(c.archivedAt),
    bad_words: c.badWords,
    leaderboard_ranking: c.leaderboardRanking,
    created_at: c.createdAt.toISOString(),
  };
}

/** An API key on the wire: never the key itself, only its non-secret prefix. */
export function apiKeyJson(k: Prisma.ApiKeyGetPayload<true>) {
  return {
    id: k.id,
    prefix: k.prefix,
    label: k.label,
    backfill: k.backfill,
    created_at: k.createdAt.toISOString(),
    last_used_at: iso(k.lastUsedAt),
    revoked_at: iso(k.revokedAt),
  };
}

/** A registered event type on the wire; its id is the reg_event_id events reference. */
export function eventTypeJson(t: Prisma.EventTypeGetPayload<true>) {
  return { reg_event_id: t.id, name: t.name, description: t.description, created_at: t.createdAt.toISOString(), retired_at: iso(t.retiredAt) };
}

/** A recompute job on the wire, with its progress as a fraction between 0 and 1. */
export function recomputeJobJson(j: Prisma.RecomputeJobGetPayload<true>) {
  const total = Number(j.eventsTotal);
  const done = Number(j.eventsDone);
  return {
    id: j.id,
    campaign_id: j.campaignId,
    rule_version: j.ruleVersion,
    reason: j.reason,
    status: j.status,
    events_total: total,
    events_done: done,
    progress: j.status === "done" ? 1 : total > 0 ? Math.min(1, done / total) : 0,
    error: j.error,
    created_at: j.createdAt.toISOString(),
    started_at: iso(j.startedAt),
    finished_at: iso(j.finishedAt),
  };
}

/** An identity of a user on the wire. */
export function identityJson(i: Prisma.IdentityGetPayload<true>) {
  return { id: i.id, identity_type: i.identityType, account_id: i.accountId, handle: i.handle, created_at: i.createdAt.toISOString() };
}
