import { hashPassword } from "@pointwise/auth";
import type { Database } from "@pointwise/db";
import { ConflictError } from "@pointwise/errors";

/**
 * Creates the demo project and its first operator from settings when that e-mail is not known yet.
 * Idempotent: running it on every start changes nothing once the operator exists.
 */
export async function ensureFirstOperator(
  db: Database,
  email: string,
  password: string,
  projectName: string,
): Promise<{ projectId: string; created: boolean }> {
  const existing = await db.prisma.operator.findUnique({ where: { email: email.toLowerCase() } });
  if (existing) return { projectId: existing.projectId, created: false };
  const passwordHash = await hashPassword(password);
  const project = await db.prisma.project.create({ data: { name: projectName, operators: { create: { email: email.toLowerCase(), passwordHash } } } });
  return { projectId: project.id, created: true };
}

/** Adds an operator to a project; e-mails are unique across projects because sign-in is by e-mail alone. */
export async function createOperator(db: Database, projectId: string, email: string, password: string) {
  const normalized = email.toLowerCase();
  if (await db.prisma.operator.findUnique({ where: { email: normalized }, select: { id: true } })) {
    throw new ConflictError("operator-exists", `email: an operator with the e-mail ${normalized} already exists`);
  }
  return db.prisma.operator.create({ data: { projectId, email: normalized, passwordHash: await hashPassword(password) } });
}
