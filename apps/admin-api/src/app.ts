import { createHttpApp, finishHttpApp } from "@pointwise/runtime";
import express, { type Express } from "express";
import type { Deps } from "./deps";
import { authRoutes } from "./routes/auth";
import { campaignRoutes } from "./routes/campaigns";
import { requireOperator } from "./session";

/** Builds the admin-api express app from its dependencies. */
export function createAdminApp(deps: Deps): Express {
  const app = createHttpApp({ logger: deps.logger, readiness: [{ name: "postgres", check: () => deps.db.ping() }] });
  app.use(express.json({ limit: "256kb" }));
  app.use(authRoutes(deps));
  app.use("/api", requireOperator(deps.env.ADMIN_JWT_SECRET));
  app.use(campaignRoutes(deps));
  return finishHttpApp(app, deps.logger);
}
