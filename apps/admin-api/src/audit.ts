// The audit trail: every operator action that changes what users see, recorded with who, what, when, before and after.
import type { Queryable } from "@pointwise/db";
import type { OperatorSession } from "./session";

/** Every action the trail records; the dashboard and the API filter by these names. */
export const AUDIT_ACTIONS = [
  "campaign.create",
  "campaign.update",
  "campaign.archive",
  "campaign.restore",
  "campaign.bad-words",
  "api-key.create",
  "api-key.update",
  "api-key.revoke",
  "event-type.create",
  "event-type.retire",
  "rule-version.create",
  "rule-version.activate",
  "user.update",
  "identity.link",
  "identity.move",
  "identity.update",
  "identity.unlink",
  "csv-import.events",
  "exclusion.create",
  "exclusion.lift",
  "exclusion.import",
  "adjustment.create",
  "adjustment.import",
  "operator.add",
  "operator.remove",
] as const;

/** One audited action's name. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an audited action changed. */
export interface AuditEntry {
  /** Null for project-wide actions (operators, project exclusions). */
  campaignId: string | null;
  action: AuditAction;
  /** What was acted on, e.g. `user:<uuid>`, `api-key:<uuid>`, `rule-version:3`. */
  target: string | null;
  before?: unknown;
  after?: unknown;
}

// JSON of values that may hold bigints or Dates (Prisma rows); the trail stores plain JSON.
const toJson = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v));

/**
 * Appends one action to the trail. Given a transaction, the row commits or rolls back with the change
 * it describes. The operator's e-mail is copied in, so the row still names them after they are removed.
 */
export async function recordAudit(q: Queryable, session: OperatorSession, entry: AuditEntry): Promise<void> {
  await q.query(
    `INSERT INTO audit_event(project_id, campaign_id, operator_id, operator_email, action, target, before, after)
     SELECT $1, $2, $3, COALESCE((SELECT email FROM operator WHERE id = $3), 'unknown'), $4, $5, $6::jsonb, $7::jsonb`,
    [session.projectId, entry.campaignId, session.operatorId, entry.action, entry.target, toJson(entry.before), toJson(entry.after)],
  );
}

/** An audit row as read back. */
export interface AuditRow {
  id: string;
  campaign_id: string | null;
  operator_id: string | null;
  operator_email: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  created_at: Date;
}

/** An audit row on the wire. */
export function auditJson(r: AuditRow) {
  return {
    id: r.id,
    campaign_id: r.campaign_id,
    operator_id: r.operator_id,
    operator_email: r.operator_email,
    action: r.action,
    target: r.target,
    before: r.before ?? null,
    after: r.after ?? null,
    created_at: r.created_at.toISOString(),
  };
}
