// Express app of the admin API: operator routes under /api behind sign-in, and the built dashboard at /.
import { existsSync } from "node:fs";
import path from "node:path";
import { createHttpApp, finishHttpApp, jsonBody, jsonBodyErrors } from "@pointwise/runtime";
import express, { type Express } from "express";
import type { Deps } from "./deps";
import { adjustmentRoutes } from "./routes/adjustments";
import { apiKeyRoutes } from "./routes/api-keys";
import { auditRoutes } from "./routes/audit";
import { keysOf, loginRoutes, operatorRoutes } from "./routes/auth";
import { campaignRoutes } from "./routes/campaigns";
import { claimEpochRoutes } from "./routes/claim-epochs";
import { csvImportRoutes } from "./routes/csv-imports";
import { eventTypeRoutes } from "./routes/event-types";
import { exclusionRoutes } from "./routes/exclusions";
import { insightRoutes } from "./routes/insights";
import { redemptionRoutes } from "./routes/redemptions";
import { rewardRoutes } from "./routes/rewards";
import { ruleRoutes } from "./routes/rules";
import { userRoutes } from "./routes/users";
import { requireOperator } from "./session";

const DASHBOARD_HEADERS = {
  "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/** Builds the admin-api express app: the operator API under /api and the dashboard at /. */
export function createAdminApp(deps: Deps): Express {
  const app = createHttpApp({
    logger: deps.logger,
    readiness: [{ name: "postgres", check: () => deps.db.ping() }],
    trustProxy: deps.env.ADMIN_TRUST_PROXY,
    ...(deps.metrics === undefined ? {} : { metrics: deps.metrics }),
  });
  app.use((_req, res, next) => {
    res.set(DASHBOARD_HEADERS);
    next();
  });
  app.use("/api", jsonBody({ limit: "1mb" }));
  app.get("/api/openapi.yaml", (_req, res) => {
    res.type("application/yaml").sendFile(path.resolve(deps.env.OPENAPI_FILE));
  });
  app.use(loginRoutes(deps));
  app.use("/api", requireOperator(keysOf(deps), deps.db));
  app.use(operatorRoutes(deps));
  app.use(campaignRoutes(deps));
  app.use(apiKeyRoutes(deps));
  app.use(eventTypeRoutes(deps));
  app.use(ruleRoutes(deps));
  app.use(userRoutes(deps));
  app.use(insightRoutes(deps));
  app.use(csvImportRoutes(deps));
  app.use(exclusionRoutes(deps));
  app.use(adjustmentRoutes(deps));
  app.use(rewardRoutes(deps));
  app.use(redemptionRoutes(deps));
  app.use(claimEpochRoutes(deps));
  app.use(auditRoutes(deps));
  if (existsSync(deps.env.WEB_DIST_DIR)) {
    // Hashed asset names never change content, so they can be cached for good; index.html never is.
    app.use("/assets", express.static(path.join(deps.env.WEB_DIST_DIR, "assets"), { immutable: true, maxAge: "365d", fallthrough: false }));
    app.use(express.static(deps.env.WEB_DIST_DIR, { index: "index.html", maxAge: 0 }));
  }
  app.use(jsonBodyErrors());
  return finishHttpApp(app, deps.logger);
}
