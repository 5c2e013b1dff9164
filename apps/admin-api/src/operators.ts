import { hashPassword, verifyPassword } from "@pointwise/auth";
import type { Database } from "@pointwise/db";
import { ConflictError } from "@pointwise/errors";

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
    await db.prisma.operator.update({ where: { id: existing.id }, data: { passwordHash: await hashPassword(password) } });
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
