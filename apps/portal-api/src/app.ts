// Express app of the portal API: the JWKS, sign-in, and the signed-in participant's own routes.
import path from "node:path";
import { corsMiddleware, createHttpApp, finishHttpApp, jsonBody, jsonBodyErrors } from "@pointwise/runtime";
import express, { type Express } from "express";
import type { Deps } from "./deps";
import { meRoutes } from "./routes/me";
import { oauthRoutes } from "./routes/oauth";
import { rewardRoutes } from "./routes/rewards";
import { signInRoutes } from "./routes/sign-in";

/** Builds the portal-api express app. */
export function createPortalApp(deps: Deps): Express {
  const app = createHttpApp({
    logger: deps.logger,
    ...(deps.metrics === undefined ? {} : { metrics: deps.metrics }),
    readiness: [{ name: "postgres", check: () => deps.db.ping() }],
    trustProxy: deps.env.PORTAL_TRUST_PROXY,
  });
  app.use((_req, res, next) => {
    res.set({ "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" });
    next();
  });
  const origins = deps.env.CORS_ALLOWED_ORIGINS;
  // A portal's pages call sign-in and /me from the participant's browser; credentials travel in Authorization, never cookies.
  if (origins === "*" || origins.length > 0) {
    app.use(
      corsMiddleware({
        origins,
        methods: ["GET", "POST", "PATCH", "OPTIONS"],
        headers: ["Authorization", "Content-Type", "Idempotency-Key"],
        maxAgeSeconds: 600,
      }),
    );
  }
  app.use(jsonBody({ limit: "64kb" }));
  app.get("/.well-known/jwks.json", (_req, res) => {
    // Verifiers may keep it a few minutes; a new key is published well before it signs (see docs/portal-auth.md).
    res.set("cache-control", "public, max-age=300");
    res.json(deps.keys.jwks());
  });
  app.get("/openapi.yaml", (_req, res) => {
    res.type("application/yaml").sendFile(path.resolve(deps.env.OPENAPI_FILE));
  });
  // The participant page: static, same origin as the API; it reads scores from the read API.
  app.get("/web-config.json", (_req, res) => {
    const { CLAIMS_CONTRACT: contract, CLAIMS_CHAIN_ID: chainId } = deps.env;
    res.json({
      read_api_url: deps.env.PORTAL_READ_API_URL,
      oauth_providers: Object.keys(deps.env.PORTAL_OAUTH_PROVIDERS),
      // The page lists token claims only when there is a contract to send them to.
      claims: contract && chainId !== undefined ? { contract, chain_id: chainId } : null,
    });
  });
  app.use(
    express.static(deps.env.PORTAL_WEB_DIR, {
      index: "index.html",
      maxAge: 0,
      setHeaders(res) {
        res.set({
          "content-security-policy": `default-src 'self'; connect-src 'self' ${deps.env.PORTAL_READ_API_URL}; frame-ancestors 'none'`,
          "x-frame-options": "DENY",
        });
      },
    }),
  );
  app.use(signInRoutes(deps));
  app.use(rewardRoutes(deps));
  app.use(meRoutes(deps));
  app.use(oauthRoutes(deps));
  app.use(jsonBodyErrors());
  return finishHttpApp(app, deps.logger);
}
