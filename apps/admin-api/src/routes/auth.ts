// Admin routes for signing in and out and for operators: who am I, list, add, remove, change password.
import { AuthError, ConflictError } from "@pointwise/errors";
import { clientAddress, parseWith } from "@pointwise/runtime";
import { UUID_PATTERN } from "@pointwise/schemas";
import { Router } from "express";
import { z } from "zod";
import { recordAudit } from "../audit";
import type { Deps } from "../deps";
import { accountsFor, changePassword, createOperator, removeOperator } from "../operators";
import { uuidParam } from "../scope";
import { revokeSession, type SessionKeys, sessionOf, signSession } from "../session";
import { clearSignInAttempts, countSignInAddress, countSignInAttempt, type SignInLimit } from "../sign-in";

const loginSchema = z.strictObject({
  email: z.email("must be an e-mail address"),
  password: z.string().min(1, "must not be empty"),
  project_id: z.string().regex(UUID_PATTERN, "must be a uuid").optional(),
});
const newPassword = z.string().min(12, "must be at least 12 characters").max(200, "must be at most 200 characters");
const operatorSchema = z.strictObject({ email: z.email("must be an e-mail address"), password: newPassword });
const passwordChangeSchema = z.strictObject({ current_password: z.string().min(1, "must not be empty"), new_password: newPassword });

const limitOf = (deps: Deps): SignInLimit => ({
  attempts: deps.env.ADMIN_SIGN_IN_ATTEMPTS,
  attemptsPerAddress: deps.env.ADMIN_SIGN_IN_ATTEMPTS_PER_IP,
  windowSeconds: deps.env.ADMIN_SIGN_IN_WINDOW_S,
});
/** The secret and life of session tokens, from settings. */
export const keysOf = (deps: Deps): SessionKeys => ({ secret: deps.env.ADMIN_JWT_SECRET, maxAgeS: deps.env.ADMIN_SESSION_MAX_AGE_S });

/** POST /api/auth/login: e-mail and password (and a project when they open several) in, a session token out (no session needed). */
export function loginRoutes(deps: Deps): Router {
  const router = Router();
  router.post("/api/auth/login", async (req, res) => {
    const body = parseWith(loginSchema, req.body);
    const { email, password } = body;
    const normalized = email.toLowerCase();
    // Counted before the password is checked, so parallel guesses cannot outrun the limits: the address's first,
    // so guesses spread over many e-mails stop there; the socket's address unless ADMIN_TRUST_PROXY says otherwise.
    await countSignInAddress(deps.db, clientAddress(req), limitOf(deps));
    await countSignInAttempt(deps.db, normalized, limitOf(deps));
    // Same answer for an unknown e-mail and a wrong password (and the same time), so sign-in does not reveal who has an account.
    const accounts = await accountsFor(deps.db, normalized, password, body.project_id);
    const operator = accounts[0];
    if (operator === undefined) throw new AuthError("invalid-credentials", "e-mail or password is wrong");
    await clearSignInAttempts(deps.db, normalized, limitOf(deps));
    if (accounts.length > 1) {
      // Only someone who knows the password of every one of these accounts gets here.
      const choices = accounts.map((a) => `${a.projectId} (${a.projectName})`).join(", ");
      throw new ConflictError("project-choice-required", `project_id: this e-mail and password open several projects; sign in again with one of ${choices}`);
    }
    deps.logger.info({ operator_id: operator.id, project_id: operator.projectId }, "operator signed in");
    const token = signSession(keysOf(deps), { operatorId: operator.id, projectId: operator.projectId, sessionVersion: operator.sessionVersion });
    res.json({ token, project_id: operator.projectId });
  });
  return router;
}

/** The signed-in operator, their project's operators, and the settings the dashboard shows. */
export function operatorRoutes(deps: Deps): Router {
  const router = Router();
  const { prisma } = deps.db;

  router.post("/api/auth/logout", async (_req, res) => {
    const session = sessionOf(res.locals);
    await revokeSession(deps.db, session);
    deps.logger.info({ operator_id: session.operatorId, project_id: session.projectId }, "operator signed out");
    res.json({ signed_out: true });
  });

  router.get("/api/me", async (_req, res) => {
    const session = sessionOf(res.locals);
    const operator = await prisma.operator.findFirst({ where: { id: session.operatorId, projectId: session.projectId }, include: { project: true } });
    if (!operator) throw new AuthError("unauthenticated", "this operator no longer exists; sign in again");
    res.json({
      operator: { id: operator.id, email: operator.email, created_at: operator.createdAt.toISOString() },
      project: { id: operator.project.id, name: operator.project.name },
      settings: { ingest_public_url: deps.env.INGEST_PUBLIC_URL, read_api_url: deps.env.READ_API_URL },
    });
  });

  router.get("/api/operators", async (_req, res) => {
    const rows = await prisma.operator.findMany({ where: { projectId: sessionOf(res.locals).projectId }, orderBy: { createdAt: "asc" } });
    res.json({ operators: rows.map((o) => ({ id: o.id, email: o.email, created_at: o.createdAt.toISOString() })) });
  });

  router.post("/api/operators", async (req, res) => {
    const session = sessionOf(res.locals);
    const body = parseWith(operatorSchema, req.body);
    // A new operator always joins the inviting operator's project: nobody can add people to another tenant.
    // Whether the e-mail has an account elsewhere (or here already) makes no difference to the answer.
    const row = await createOperator(deps.db, session.projectId, body.email, body.password, (tx, added) =>
      recordAudit(tx, session, { campaignId: null, action: "operator.add", target: `operator:${added.id}`, after: { id: added.id, email: added.email } }),
    );
    deps.logger.info({ operator_id: row.id, invited_by: session.operatorId, project_id: session.projectId }, "operator added");
    res.status(201).json({ id: row.id, email: row.email, created_at: row.createdAt.toISOString() });
  });

  router.delete("/api/operators/:operatorId", async (req, res) => {
    const session = sessionOf(res.locals);
    const operatorId = uuidParam(req.params.operatorId, "operator_id");
    await removeOperator(deps.db, session.projectId, session.operatorId, operatorId, (tx, removed) =>
      recordAudit(tx, session, { campaignId: null, action: "operator.remove", target: `operator:${operatorId}`, before: removed }),
    );
    deps.logger.info({ operator_id: operatorId, removed_by: session.operatorId, project_id: session.projectId }, "operator removed");
    res.json({ removed: operatorId });
  });

  router.post("/api/me/password", async (req, res) => {
    const session = sessionOf(res.locals);
    const body = parseWith(passwordChangeSchema, req.body);
    const { sessionVersion } = await changePassword(deps.db, session.operatorId, body.current_password, body.new_password, limitOf(deps));
    deps.logger.info({ operator_id: session.operatorId, project_id: session.projectId }, "operator changed their password; older sessions ended");
    // Every other session ended with the change; this one goes on with a new token.
    res.json({ token: signSession(keysOf(deps), { operatorId: session.operatorId, projectId: session.projectId, sessionVersion }) });
  });

  return router;
}
