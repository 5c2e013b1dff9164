// Verifies portal JWTs (HS256, RS256 or ES256, or keys of a JWKS) with each key pinned to one algorithm.
import { createPublicKey, type KeyObject } from "node:crypto";
import { checkTokenBounds, decodedToken, invalidToken, tokenBoundsError, verifiedClaims } from "@pointwise/auth";
import { ConfigError } from "@pointwise/errors";
import type jwt from "jsonwebtoken";
import type { JwksSource } from "./jwks";

/** The signing algorithms a portal token may use; anything else (including `none`) is refused. */
export type PortalAlgorithm = "HS256" | "RS256" | "ES256";

/** How portal tokens are checked: a shared secret (HS256) and/or a public key (RS256 or ES256), plus iss and aud. */
export interface PortalJwtOptions {
  secret?: string | undefined;
  publicKeyPem?: string | undefined;
  /** Keys published by the portal (PORTAL_JWKS_URL); a token naming a `kid` is checked with that key only. */
  jwks?: JwksSource | undefined;
  issuer: string;
  audience: string;
  /** Seconds of clock skew allowed on exp and nbf. */
  clockToleranceSec?: number;
  /** The longest life a token may claim (exp - iat, or exp - now without iat), in seconds; a day unless set. */
  maxLifetimeS?: number;
  /** The clock in milliseconds (Date.now unless set; a test fixes it so "now" cannot move between signing and checking). */
  now?: () => number;
}

/** The default of PORTAL_JWT_MAX_AGE_S: a day, far above the minutes to an hour portals should use. */
export const DEFAULT_PORTAL_MAX_AGE_S = 86_400;

/** Checks portal tokens and returns the user id they were issued for. */
export interface PortalVerifier {
  /** The algorithms this deployment accepts. */
  readonly algorithms: readonly PortalAlgorithm[];
  /** Fetches the published keys a token needs, when a JWKS is configured; call before `verify`. */
  prepare(token: string): Promise<void>;
  /** The token's `sub` (a user id); throws AuthError `invalid-token`, `token-expired` or `token-lifetime-too-long`. */
  verify(token: string): string;
}

function publicKeyAlgorithm(key: KeyObject): PortalAlgorithm {
  if (key.asymmetricKeyType === "rsa") {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < 2048) throw new ConfigError(`PORTAL_JWT_PUBLIC_KEY: an RSA key must have at least 2048 bits, this one has ${bits}`);
    return "RS256";
  }
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1") return "ES256";
  throw new ConfigError("PORTAL_JWT_PUBLIC_KEY: must be an RSA key (RS256) or a P-256 EC key (ES256)");
}

/**
 * Builds the verifier of a deployment, or null when neither a secret nor a public key is set (portal
 * tokens are then refused). Each key is bound to its one algorithm, so a token can never choose how
 * it is checked (no `none`, no HS256 signed with the public key).
 */
export function createPortalVerifier(options: PortalJwtOptions): PortalVerifier | null {
  const keys = new Map<PortalAlgorithm, string | KeyObject>();
  if (options.secret) keys.set("HS256", options.secret);
  if (options.publicKeyPem) {
    let key: KeyObject;
    try {
      key = createPublicKey(options.publicKeyPem);
    } catch (err) {
      throw new ConfigError("PORTAL_JWT_PUBLIC_KEY: not a readable PEM public key", { cause: err });
    }
    keys.set(publicKeyAlgorithm(key), key);
  }
  const jwks = options.jwks;
  if (keys.size === 0 && !jwks) return null;
  const algorithms: PortalAlgorithm[] = [...keys.keys()];
  if (jwks) for (const alg of ["ES256", "RS256"] as const) if (!algorithms.includes(alg)) algorithms.push(alg);
  // A published key is chosen by the token's kid, and then only its own algorithm is accepted; the
  // configured secret and public key are chosen by alg among themselves, as without a JWKS.
  const keyOf = (header: jwt.JwtHeader): string | KeyObject | undefined => {
    const published = jwks && typeof header.kid === "string" ? jwks.keyFor(header.kid) : undefined;
    if (published) return published.alg === header.alg ? published.key : undefined;
    return keys.get(header.alg as PortalAlgorithm);
  };
  const clock = options.now ?? Date.now;
  return {
    algorithms,
    async prepare(token) {
      if (!jwks) return;
      let kid: unknown;
      try {
        kid = decodedToken(token).header.kid;
      } catch {
        return; // verify refuses it
      }
      if (typeof kid === "string" && kid.length <= 200) await jwks.refreshFor(kid);
    },
    verify(token) {
      const decoded = decodedToken(token);
      const alg = decoded.header.alg as PortalAlgorithm;
      const key = keyOf(decoded.header);
      if (key === undefined)
        throw invalidToken(`token algorithm ${String(decoded.header.alg)} is not accepted with this key (accepted: ${algorithms.join(", ")})`);
      const payload = verifiedClaims(token, key, {
        algorithms: [alg],
        clockTimestamp: Math.floor(clock() / 1000),
        issuer: options.issuer,
        audience: options.audience,
        clockTolerance: options.clockToleranceSec ?? 5,
      });
      // A token without exp, with a critical extension we cannot honour, or valid for longer than
      // this deployment allows would outlive what the portal meant to grant: refused although signed.
      const violation = checkTokenBounds(
        decoded.header as unknown as Record<string, unknown>,
        payload,
        options.maxLifetimeS ?? DEFAULT_PORTAL_MAX_AGE_S,
        Math.floor(clock() / 1000),
      );
      if (violation) throw tokenBoundsError(violation);
      if (typeof payload.sub !== "string" || payload.sub === "") throw invalidToken("token must carry sub (the user id)");
      return payload.sub;
    },
  };
}
