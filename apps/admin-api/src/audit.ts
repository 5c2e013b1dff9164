// The audit trail: every operator action that changes what users see, recorded with who, what, when, before and after.
//
// Recording a new kind of action: add its name to AUDIT_ACTIONS (and to the action table of
// docs/api/admin.md), then call recordAudit(tx, session, entry) with the transaction that makes the
// change, after the change's own statements. The entry then commits or rolls back with the change.
import type { Prisma, Transaction } from "@pointwise/db";
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
  "reward.create",
  "reward.update",
  "reward.codes-upload",
  "redemption.fulfil",
  "redemption.reject",
  "claim-epoch.close",
  "claim-epoch.publish",
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
 * The transaction an audit entry is written in: the db package's (`db.transaction(async (tx) => ...)`)
 * or a Prisma interactive transaction (`prisma.$transaction(async (tx) => ...)`), never a bare
 * connection, so an entry cannot commit without its change or the change without its entry.
 */
export type AuditTransaction = Transaction | Prisma.TransactionClient;

const INSERT_AUDIT = `INSERT INTO audit_event(project_id, campaign_id, operator_id, operator_email, action, target, before, after)
  SELECT $1::uuid, $2::text, $3::uuid, COALESCE((SELECT email FROM operator WHERE id = $3::uuid), 'unknown'), $4::text, $5::text, $6::jsonb, $7::jsonb`;

/**
 * Appends one action to the trail inside `tx`, the transaction of the change it describes, so the two
 * commit or roll back together. Refuses (a programming error) a Database or a PrismaClient that is not
 * in a transaction. The operator's e-mail is copied in, so the row still names them after they are removed.
 */
export async function recordAudit(tx: AuditTransaction, session: OperatorSession, entry: AuditEntry): Promise<void> {
  const values = [session.projectId, entry.campaignId, session.operatorId, entry.action, entry.target, toJson(entry.before), toJson(entry.after)];
  // A Database has transaction() and a PrismaClient outside a transaction has $transaction(); the
  // transaction handles of both have neither. Types alone cannot tell a PrismaClient from its transaction.
  if ("transaction" in tx || typeof (tx as { $transaction?: unknown }).$transaction === "function")
    throw new Error(`recordAudit(${entry.action}) must be given the transaction of the change, not a connection`);
  if ("$executeRawUnsafe" in tx) await tx.$executeRawUnsafe(INSERT_AUDIT, ...values);
  else await tx.query(INSERT_AUDIT, values);
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
