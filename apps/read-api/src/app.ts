// Express app of the read API: public leaderboard and around-me, credentialed user scores, cached bodies.
import { createHash } from "node:crypto";
import { AuthError } from "@pointwise/errors";
import { type CorsPolicy, corsMiddleware, createHttpApp, finishHttpApp, varyOrigin } from "@pointwise/runtime";
import { stringifyJson } from "@pointwise/schemas";
import type { Express, Request, Response } from "express";
import fresh from "fresh";
import { createScoresAuthorizer } from "./auth";
import type { Deps } from "./deps";
import { createJwksSource } from "./jwks";
import { createPortalVerifier } from "./jwt";
import { buildAround, buildLeaderboard } from "./leaderboard";
import { cacheLookupCounter } from "./metrics";
import { invalidUserId, parseCampaignId, parseLimit, parseNeighbours, parseUserId } from "./params";
import { type CachedBody, createResponseCache, type ResponseCache } from "./response-cache";
import { buildUserScores } from "./user-scores";

// Cached bodies come back as the same string instances for a whole window, so their bytes and ETag
// are computed once per body, not once per request (UTF-8 encoding and SHA-1 of a 1000-entry
// leaderboard dominated the profile of cached reads).
const ENCODED_BYTES_MAX = 64 * 1024 * 1024;
const encoded = new Map<string, { bytes: Buffer; etag: string }>();
let encodedBytes = 0;

function encode(body: string): { bytes: Buffer; etag: string } {
  const known = encoded.get(body);
  if (known) return known;
  const bytes = Buffer.from(body, "utf8");
  if (encodedBytes + bytes.length > ENCODED_BYTES_MAX) {
    encoded.clear();
    encodedBytes = 0;
  }
  // The same weak ETag express would compute: W/"<length in hex>-<SHA-1 in base64, 27 characters>".
  const etag = `W/"${bytes.length.toString(16)}-${createHash("sha1").update(bytes).digest("base64").slice(0, 27)}"`;
  const entry = { bytes, etag };
  encoded.set(body, entry);
  encodedBytes += bytes.length;
  return entry;
}

const JSON_TYPE = "application/json; charset=utf-8";

/** What a browser on an allowed origin may send: GETs with the credential headers and a conditional ETag. */
const CORS: Omit<CorsPolicy, "origins"> = {
  methods: ["GET", "HEAD", "OPTIONS"],
  headers: ["Authorization", "X-API-Key", "If-None-Match"],
  maxAgeSeconds: 600,
};
// What every user-score answer carries (its errors too): the body depends on the credential headers.
const USER_VARY = "Authorization, X-API-Key";
// A user's record may be kept by their browser, but only to revalidate (a 304 while the ETag holds):
// a score change drops the cached record, and the user must see the new one on their next request.
const USER_CACHE = "private, no-cache";

/**
 * The public answers' Cache-Control: `max-age` is what the cached body has left of its window, in
 * whole seconds rounded down, so a shared cache never keeps it past the moment read-api itself stops
 * serving it (a full max-age on a body already 59 s old would have it served for two windows). No
 * `Age` header: max-age already counts the body's age, and a cache would subtract an Age from it again.
 */
function publicCache({ expiresAt }: CachedBody): string {
  return `public, max-age=${Math.max(0, Math.floor((expiresAt - Date.now()) / 1000))}`;
}

/** Sets the user-score Vary, beside `Origin` when CORS has said that already. */
function varyUser(res: Response): void {
  res.setHeader("Vary", res.hasHeader("Vary") ? varyOrigin(USER_VARY) : USER_VARY);
}

/**
 * Answers a cached body with one writeHead and no earlier setHeader: Node then writes the header
 * list as given instead of merging it into a header map first, and express's res.send (content
 * type lookups, ETag and length bookkeeping) is not needed for bytes whose ETag is known. A request
 * whose If-None-Match names this ETag gets 304 with no body or content headers, as res.send would
 * answer; HEAD gets the headers only (Node drops the body of a HEAD answer).
 */
function sendJson(req: Request, res: Response, { body, bypass }: CachedBody, cacheControl: string, vary?: string): void {
  const { bytes, etag } = encode(body);
  const headers = ["Cache-Control", cacheControl, "ETag", etag];
  // With CORS on, its middleware has already said `Vary: Origin`; a header given here replaces a set one, so both go in.
  if (vary !== undefined) headers.push("Vary", res.hasHeader("Vary") ? varyOrigin(vary) : vary);
  if (bypass) headers.push("X-Cache", "bypass");
  if (req.headers["if-none-match"] !== undefined && fresh(req.headers, { etag })) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers.push("Content-Type", JSON_TYPE, "Content-Length", String(bytes.length));
  res.writeHead(200, headers);
  res.end(bytes);
}

/** The response cache of read-api's settings; main.ts shares it with the score-change subscription. */
export function createReadResponses(deps: Deps): ResponseCache {
  return createResponseCache({
    cache: deps.cache,
    logger: deps.logger,
    ttlMs: deps.env.CACHE_TTL_MS,
    staleTtlMs: deps.env.STALE_TTL_MS,
    ...(deps.metrics === undefined ? {} : { onLookup: cacheLookupCounter(deps.metrics) }),
  });
}

/** Builds the read-api express app: the public leaderboard and around-me, and per-user scores behind credentials. */
export function createReadApp(deps: Deps, responses: ResponseCache = createReadResponses(deps)): Express {
  const { env } = deps;
  const verifier = createPortalVerifier({
    secret: env.PORTAL_JWT_SECRET,
    publicKeyPem: env.PORTAL_JWT_PUBLIC_KEY,
    jwks: env.PORTAL_JWKS_URL ? createJwksSource({ url: env.PORTAL_JWKS_URL, logger: deps.logger }) : undefined,
    issuer: env.PORTAL_JWT_ISSUER,
    audience: env.PORTAL_JWT_AUDIENCE,
    maxLifetimeS: env.PORTAL_JWT_MAX_AGE_S,
  });
  const authorizer = createScoresAuthorizer(deps.db, verifier, env.API_KEY_CACHE_MS);

  const app = createHttpApp({
    logger: deps.logger,
    ...(deps.metrics === undefined ? {} : { metrics: deps.metrics }),
    readiness: [
      { name: "postgres", check: () => deps.db.ping() },
      // Redis is a cache: read-api answers while it is away, so it does not make the app unready.
      { name: "redis", check: () => deps.cache.ping(), optional: true },
    ],
  });
  // Without allowed origins there is nothing to say to browsers, and cached reads keep their one-writeHead path.
  if (env.CORS_ALLOWED_ORIGINS === "*" || env.CORS_ALLOWED_ORIGINS.length > 0) app.use(corsMiddleware({ ...CORS, origins: env.CORS_ALLOWED_ORIGINS }));

  app.get("/leaderboard", async (req, res) => {
    const campaignId = parseCampaignId(req.query.campaign_id);
    const limit = parseLimit(req.query.limit);
    const body = await responses.get(["lb", campaignId, String(limit)], async () => stringifyJson(await buildLeaderboard(deps, campaignId, limit)));
    sendJson(req, res, body, publicCache(body));
  });

  app.get("/leaderboard/around/:user_id", async (req, res) => {
    const userId = parseUserId(req.params.user_id);
    const campaignId = parseCampaignId(req.query.campaign_id);
    const n = parseNeighbours(req.query.n);
    const body = await responses.get(["around", campaignId, userId, String(n)], async () => stringifyJson(await buildAround(deps, campaignId, userId, n)));
    sendJson(req, res, body, publicCache(body));
  });

  app.get("/users/:user_id/scores", async (req, res) => {
    try {
      const userId = parseUserId(req.params.user_id);
      // Who may read this user is settled before the cache is touched; the key below holds only this user's record.
      await authorizer.authorize(req.headers, userId);
      const body = await responses.get(["user", userId], async () => stringifyJson(await buildUserScores(deps, userId)));
      sendJson(req, res, body, USER_CACHE, USER_VARY);
    } catch (err) {
      if (res.headersSent) throw err;
      varyUser(res);
      // RFC 6750: a 401 names the scheme; a rejected token also says invalid_token so a portal knows to get a new one.
      if (err instanceof AuthError && err.code !== "forbidden") {
        const tokenProblem = err.code === "invalid-token" || err.code === "token-expired";
        res.setHeader("WWW-Authenticate", tokenProblem ? 'Bearer realm="pointwise", error="invalid_token"' : 'Bearer realm="pointwise"');
      }
      throw err;
    }
  });

  return finishHttpApp(app, deps.logger, {
    // Express decodes path parameters while matching a route, so `/users/%ZZ/scores` fails before
    // parseUserId runs. user_id is the only path parameter of these routes: it is that malformed id.
    malformedPathParam: (req, res) => {
      if (req.path.startsWith("/users/")) varyUser(res);
      return invalidUserId();
    },
  });
}
