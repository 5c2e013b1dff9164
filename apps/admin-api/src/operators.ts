// Operator accounts: seeding the first one, adding, removing and changing passwords with session revocation.
import { hashPassword, verifyPassword } from "@pointwise/auth";
import type { Database } from "@pointwise/db";
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
  const existing = await db.prisma.operator.findUnique({ where: { email: email.toLowerCase() } });
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

/** Adds an operator to a project; e-mails are unique across projects because sign-in is by e-mail alone. */
export async function createOperator(db: Database, projectId: string, email: string, password: string) {
  const normalized = email.toLowerCase();
  if (await db.prisma.operator.findUnique({ where: { email: normalized }, select: { id: true } })) {
    throw new ConflictError("operator-exists", `email: an operator with the e-mail ${normalized} already exists`);
  }
  return db.prisma.operator.create({ data: { projectId, email: normalized, passwordHash: await hashPassword(password) } });
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
 */
export async function removeOperator(db: Database, projectId: string, removerId: string, operatorId: string): Promise<void> {
  if (operatorId === removerId) throw new ConflictError("cannot-remove-self", "operator_id: you cannot remove yourself; ask another operator of the project");
  const { count } = await db.prisma.operator.deleteMany({ where: { id: operatorId, projectId } });
  if (count === 0) throw new NotFoundError(`operator ${operatorId} not found in this project`, { code: "operator-not-found" });
}
