// CORS for APIs a browser on another origin calls: an allow-list of exact origins, preflights answered here.
import type { RequestHandler } from "express";

/** Who may call from a browser and with what. */
export interface CorsPolicy {
  /** Exact origins (`https://portal.example.com`) that may call, or `"*"` for any origin. */
  origins: readonly string[] | "*";
  /** Methods a preflight allows. */
  methods: readonly string[];
  /** Request headers a preflight allows (the credential headers among them). */
  headers: readonly string[];
  /** How long a browser may reuse a preflight's answer (seconds). */
  maxAgeSeconds: number;
}

/** Adds `Origin` to the response's Vary header, keeping what is there. */
export function varyOrigin(current: string | number | readonly string[] | undefined): string {
  const text = current === undefined ? "" : Array.isArray(current) ? current.join(", ") : String(current);
  const names = text
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  if (names.some((n) => n === "*" || n.toLowerCase() === "origin")) return names.join(", ");
  return ["Origin", ...names].join(", ");
}

/**
 * The CORS middleware of a policy. Every answer says `Vary: Origin`, because whether it carries
 * `Access-Control-Allow-Origin` depends on the caller's origin and a shared cache must not mix them.
 * An allowed origin is echoed (never `*`, even when any origin is allowed, so the answer is the same
 * shape either way); a disallowed one gets no CORS header at all and the browser withholds the answer.
 * A preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 here and goes no further.
 * Credentials travel in headers (Authorization, X-API-Key), not cookies, so `Allow-Credentials` is never sent.
 */
export function corsMiddleware(policy: CorsPolicy): RequestHandler {
  const allowed = policy.origins === "*" ? null : new Set(policy.origins);
  const methods = policy.methods.join(", ");
  const headers = policy.headers.join(", ");
  const maxAge = String(policy.maxAgeSeconds);
  return (req, res, next) => {
    res.setHeader("Vary", varyOrigin(res.getHeader("Vary")));
    const origin = req.headers.origin;
    const ok = origin !== undefined && origin !== "null" && (allowed === null || allowed.has(origin));
    if (ok) res.setHeader("Access-Control-Allow-Origin", origin);
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
      if (ok) {
        res.setHeader("Access-Control-Allow-Methods", methods);
        res.setHeader("Access-Control-Allow-Headers", headers);
        res.setHeader("Access-Control-Max-Age", maxAge);
      }
      res.statusCode = 204;
      res.end();
      return;
    }
    next();
  };
}
