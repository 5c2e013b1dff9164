import { AuthError } from "@pointwise/errors";
import { createHttpApp, finishHttpApp } from "@pointwise/runtime";
import type { Express, Response } from "express";
import { createScoresAuthorizer } from "./auth";
import type { Deps } from "./deps";
import { createPortalVerifier } from "./jwt";
import { buildAround, buildLeaderboard } from "./leaderboard";
import { parseCampaignId, parseLimit, parseNeighbours, parseUserId } from "./params";
import { createResponseCache, type ResponseCache } from "./response-cache";
import { buildUserScores } from "./user-scores";

function sendJson(res: Response, body: string, cacheControl: string): void {
  res.set("Cache-Control", cacheControl).type("application/json").send(body);
}

/** The response cache of read-api's settings; main.ts shares it with the score-change subscription. */
export function createReadResponses(deps: Deps): ResponseCache {
  return createResponseCache({ cache: deps.cache, logger: deps.logger, ttlMs: deps.env.CACHE_TTL_MS, staleTtlMs: deps.env.STALE_TTL_MS });
}

/** Builds the read-api express app: the public leaderboard and around-me, and per-user scores behind credentials. */
export function createReadApp(deps: Deps, responses: ResponseCache = createReadResponses(deps)): Express {
  const { env } = deps;
  const verifier = createPortalVerifier({
    secret: env.PORTAL_JWT_SECRET,
    publicKeyPem: env.PORTAL_JWT_PUBLIC_KEY,
    issuer: env.PORTAL_JWT_ISSUER,
    audience: env.PORTAL_JWT_AUDIENCE,
  });
  const authorizer = createScoresAuthorizer(deps.db, verifier, env.API_KEY_CACHE_MS);
  const maxAge = Math.ceil(env.CACHE_TTL_MS / 1000);
  const publicCache = `public, max-age=${maxAge}`;

  const app = createHttpApp({
    logger: deps.logger,
    readiness: [
      { name: "postgres", check: () => deps.db.ping() },
      { name: "redis", check: () => deps.cache.ping() },
    ],
  });

  app.get("/leaderboard", async (req, res) => {
    const campaignId = parseCampaignId(req.query.campaign_id);
    const limit = parseLimit(req.query.limit);
    const body = await responses.get(["lb", campaignId, String(limit)], async () => JSON.stringify(await buildLeaderboard(deps, campaignId, limit)));
    sendJson(res, body, publicCache);
  });

  app.get("/leaderboard/around/:user_id", async (req, res) => {
    const userId = parseUserId(req.params.user_id);
    const campaignId = parseCampaignId(req.query.campaign_id);
    const n = parseNeighbours(req.query.n);
    const body = await responses.get(["around", campaignId, userId, String(n)], async () => JSON.stringify(await buildAround(deps, campaignId, userId, n)));
    sendJson(res, body, publicCache);
  });

  app.get("/users/:user_id/scores", async (req, res) => {
    const userId = parseUserId(req.params.user_id);
    res.vary("Authorization").vary("X-API-Key");
    // Who may read this user is settled before the cache is touched; the key below holds only this user's record.
    try {
      await authorizer.authorize(req.headers, userId);
    } catch (err) {
      // RFC 6750: a 401 names the scheme; a rejected token also says invalid_token so a portal knows to get a new one.
      if (err instanceof AuthError && err.code !== "forbidden") {
        const tokenProblem = err.code === "invalid-token" || err.code === "token-expired";
        res.set("WWW-Authenticate", tokenProblem ? 'Bearer realm="pointwise", error="invalid_token"' : 'Bearer realm="pointwise"');
      }
      throw err;
    }
    const body = await responses.get(["user", userId], async () => JSON.stringify(await buildUserScores(deps, userId)));
    sendJson(res, body, `private, max-age=${maxAge}`);
  });

  return finishHttpApp(app, deps.logger);
}
