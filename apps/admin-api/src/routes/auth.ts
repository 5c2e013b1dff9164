import { verifyPassword } from "@pointwise/auth";
import { AuthError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { Router } from "express";
import { z } from "zod";
import type { Deps } from "../deps";
import { signSession } from "../session";

const loginSchema = z.object({ email: z.email(), password: z.string().min(1) }).strict();

/** POST /api/auth/login: e-mail and password in, a session token out. */
export function authRoutes(deps: Deps): Router {
  const router = Router();
  router.post("/api/auth/login", async (req, res) => {
    const { email, password } = parseWith(loginSchema, req.body);
    const operator = await deps.db.prisma.operator.findUnique({ where: { email: email.toLowerCase() } });
    // Same answer for an unknown e-mail and a wrong password, so sign-in does not reveal who has an account.
    const ok = operator ? await verifyPassword(password, operator.passwordHash) : false;
    if (!operator || !ok) throw new AuthError("invalid-credentials", "e-mail or password is wrong");
    res.json({ token: signSession(deps.env.ADMIN_JWT_SECRET, { operatorId: operator.id, projectId: operator.projectId }), project_id: operator.projectId });
  });
  return router;
}
