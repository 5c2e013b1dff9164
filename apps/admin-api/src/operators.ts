// Operator accounts: seeding the first one, finding accounts at sign-in, adding, removing and changing passwords.
import { randomUUID } from "node:crypto";
import { hashPassword, verifyPassword } from "@pointwise/auth";
import type { Database, Transaction } from "@pointwise/db";
import { AuthError, ConflictError, NotFoundError, ValidationError } from "@pointwise/errors";
import { clearSignInAttempts, countSignInAttempt, type SignInLimit } from "./sign-in";

/**
 * Creates the demo project and its first operator from settings when that e-mail is not known yet.
 * The settings stay authoritative for that operator: when the stored password no longer matches
 * ADMIN_PASSWORD (a new clone with newly generated secrets on the same database), it is reset to it.
 * Otherwise running it on every start changes nothing.
 */
export async function ensureFirstOperator(
  db: Database,
  email: string,
  password: string,
  projectName: string,
): Promise<{ projectId: string; created: boolean; passwordReset: boolean }> {
  // E-mails are unique per project only; the settings' operator is the oldest account with that e-mail,
  // which is the demo project's (created by the first start, before anyone could add another).
  const existing = await db.prisma.operator.findFirst({ where: { email: email.toLowerCase() }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  if (existing) {
    if (await verifyPassword(password, existing.passwordHash)) return { projectId: existing.projectId, created: false, passwordReset: false };
    // A reset is a password change: sessions signed under the old password end.
    await db.prisma.operator.update({
      where: { id: existing.id },
      data: { passwordHash: await hashPassword(password), sessionVersion: { increment: 1 } },
    });
    return { projectId: existing.projectId, created: false, passwordReset: true };
  }
  const passwordHash = await hashPassword(password);
  const project = await db.prisma.project.create({ data: { name: projectName, operators: { create: { email: email.toLowerCase(), passwordHash } } } });
  return { projectId: project.id, created: true, passwordReset: false };
}

/** An account an e-mail and password opened, with its project's name for choosing among several. */
export interface SignInAccount {
  id: string;
  projectId: string;
  projectName: string;
  sessionVersion: number;
}

// A hash of a password nobody has, checked when no account has the e-mail, so that answer takes as
// long as a wrong password: sign-in's timing must not tell who has an account either.
let decoy: Promise<string> | undefined;
const decoyHash = () => {
  decoy ??= hashPassword(randomUUID());
  return decoy;
};

/**
 * The accounts an e-mail (lower-cased by the caller) and a password open, within one project when
 * `projectId` is given: usually none or one; several when the same person uses the same password in
 * several projects. The candidates' hashes are checked concurrently (scrypt runs on libuv's thread
 * pool), so the time hardly depends on how many projects use the e-mail.
 */
export async function accountsFor(db: Database, email: string, password: string, projectId?: string): Promise<SignInAccount[]> {
  const candidates = await db.prisma.operator.findMany({
    where: { email, ...(projectId === undefined ? {} : { projectId }) },
    include: { project: { select: { name: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  if (candidates.length === 0) {
    await verifyPassword(password, await decoyHash());
    return [];
  }
  const checks = await Promise.all(candidates.map((o) => verifyPassword(password, o.passwordHash)));
  return candidates
    .filter((_, i) => checks[i])
    .map((o) => ({ id: o.id, projectId: o.projectId, projectName: o.project.name, sessionVersion: o.sessionVersion }));
}

/** An operator as the API shows it. */
export interface OperatorRow {
  id: string;
  email: string;
  createdAt: Date;
}

// Inserted, or the project's existing account with that e-mail when there is one: one statement, so
// two concurrent invitations of the same e-mail cannot both insert or fail.
const ADD_OPERATOR = `
WITH inserted AS (
  INSERT INTO operator (project_id, email, password_hash) VALUES ($1, $2, $3)
  ON CONFLICT (project_id, email) DO NOTHING
  RETURNING id, email, created_at
)
SELECT id, email, created_at FROM inserted
UNION ALL
SELECT id, email, created_at FROM operator WHERE project_id = $1 AND email = $2
LIMIT 1`;

const FIND_OPERATOR = "SELECT id, email, created_at FROM operator WHERE project_id = $1 AND email = $2";

/**
 * Adds an operator to a project. Accounts are per project, so an e-mail another project uses is
 * simply a new account here, and the answer is the same whoever else has that e-mail. An e-mail
 * this project already has answers that operator, unchanged (its password is not replaced: only
 * its owner changes it). The password is hashed either way, so the two take the same time.
 * `inTransaction` (e.g. the audit entry) runs in the transaction that adds the operator.
 */
export async function createOperator(
  db: Database,
  projectId: string,
  email: string,
  password: string,
  inTransaction?: (tx: Transaction, row: OperatorRow) => Promise<void>,
): Promise<OperatorRow> {
  // Hashed before the transaction begins, so no connection is held while scrypt runs.
  const passwordHash = await hashPassword(password);
  const args = [projectId, email.toLowerCase()];
  return db.transaction(async (tx) => {
    let [row] = (await tx.query<{ id: string; email: string; created_at: Date }>(ADD_OPERATOR, [...args, passwordHash])).rows;
    // Another invitation of the same e-mail inserted first: ON CONFLICT waited for it to commit, but
    // this statement's snapshot is older than that commit; a second statement (read committed) sees the row.
    row ??= (await tx.query<{ id: string; email: string; created_at: Date }>(FIND_OPERATOR, args)).rows[0];
    if (row === undefined) throw new Error("operator neither inserted nor found");
    const added = { id: row.id, email: row.email, createdAt: row.created_at };
    await inTransaction?.(tx, added);
    return added;
  });
}

/**
 * Changes an operator's password after checking the current one, and raises their session version
 * so every session signed before (on any device) ends; returns the new version for the caller's new
 * session. Checks of the current password count against the same limit as sign-ins (a stolen session
 * must not be a way to guess the password). Two concurrent changes cannot both win: the update only
 * applies to the hash it checked.
 */
export async function changePassword(db: Database, operatorId: string, current: string, next: string, limit: SignInLimit): Promise<{ sessionVersion: number }> {
  const operator = await db.prisma.operator.findUnique({ where: { id: operatorId } });
  if (!operator) throw new AuthError("unauthenticated", "this operator no longer exists; sign in again");
  await countSignInAttempt(db, operator.email, limit);
  if (!(await verifyPassword(current, operator.passwordHash))) {
    throw new ValidationError("current_password: is not this operator's password", { code: "current-password-wrong", field: "current_password" });
  }
  if (current === next) throw new ValidationError("new_password: must differ from the current password", { field: "new_password" });
  const { count } = await db.prisma.operator.updateMany({
    where: { id: operatorId, passwordHash: operator.passwordHash },
    data: { passwordHash: await hashPassword(next), sessionVersion: { increment: 1 } },
  });
  if (count === 0) throw new ConflictError("password-changed", "the password was changed by another request meanwhile; sign in again");
  await clearSignInAttempts(db, operator.email, limit);
  return { sessionVersion: operator.sessionVersion + 1 };
}

/**
 * Removes an operator of the same project; their sessions end at once (see requireOperator). An
 * operator cannot remove themselves, so a project always keeps at least one operator.
 * `inTransaction` (e.g. the audit entry) runs in the transaction that removes the operator.
 */
export async function removeOperator(
  db: Database,
  projectId: string,
  removerId: string,
  operatorId: string,
  inTransaction?: (tx: Transaction, removed: { id: string; email: string }) => Promise<void>,
): Promise<void> {
  if (operatorId === removerId) throw new ConflictError("cannot-remove-self", "operator_id: you cannot remove yourself; ask another operator of the project");
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; email: string }>("DELETE FROM operator WHERE id = $1 AND project_id = $2 RETURNING id, email", [
      operatorId,
      projectId,
    ]);
    const removed = rows[0];
    if (!removed) throw new NotFoundError(`operator ${operatorId} not found in this project`, { code: "operator-not-found" });
    await inTransaction?.(tx, removed);
  });
}
