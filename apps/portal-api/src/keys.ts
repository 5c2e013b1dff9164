// The portal's signing keys: ES256 access tokens, their JWKS, and verifying our own tokens.
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { checkTokenBounds, decodedToken, invalidToken, tokenBoundsError, verifiedClaims } from "@pointwise/auth";
import { ConfigError } from "@pointwise/errors";
import jwt from "jsonwebtoken";

/** A public key as the JWKS publishes it (RFC 7517, P-256). */
export interface PublicJwk {
  kty: "EC";
  crv: "P-256";
  x: string;
  y: string;
  kid: string;
  alg: "ES256";
  use: "sig";
}

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: PublicJwk;
}

/** What an access token says: who, which session, which campaign. */
export interface AccessClaims {
  userId: string;
  sessionId: string;
  campaignId: string;
}

/** Signs and checks access tokens and publishes the public keys. */
export interface TokenKeys {
  /** `{ keys: [...] }`: every configured key, the signing one first. */
  jwks(): { keys: PublicJwk[] };
  /** An ES256 access token for the session, valid for `ttlS` seconds. */
  sign(claims: AccessClaims, ttlS: number): string;
  /** The claims of one of our own access tokens; throws AuthError `invalid-token`, `token-expired` or `token-lifetime-too-long`. */
  verify(token: string): AccessClaims;
}

// RFC 7638: the key id is the SHA-256 of the required members in lexical order, so it names the key itself.
function thumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash("sha256").update(canonical).digest("base64url");
}

function loadKey(pem: string, index: number): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (err) {
    throw new ConfigError(`PORTAL_SIGNING_KEYS: key ${index + 1} is not a readable PEM private key`, { cause: err });
  }
  if (privateKey.asymmetricKeyType !== "ec" || privateKey.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new ConfigError(`PORTAL_SIGNING_KEYS: key ${index + 1} must be a P-256 EC key (ES256)`);
  }
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: "jwk" }) as { kty: string; crv: string; x: string; y: string };
  const kid = thumbprint(raw);
  return { kid, privateKey, publicKey, jwk: { kty: "EC", crv: "P-256", x: raw.x, y: raw.y, kid, alg: "ES256", use: "sig" } };
}

/**
 * Loads the signing keys (the first signs; the others stay published so tokens they signed keep
 * verifying until they expire, which is how a key is rotated in and out).
 */
export function createTokenKeys(pems: readonly string[], options: { issuer: string; audience: string; maxLifetimeS: number }): TokenKeys {
  const keys = pems.map(loadKey);
  const current = keys[0];
  if (!current) throw new ConfigError("PORTAL_SIGNING_KEYS: at least one key is required");
  const byKid = new Map(keys.map((k) => [k.kid, k]));
  return {
    jwks: () => ({ keys: keys.map((k) => k.jwk) }),
    sign(claims, ttlS) {
      return jwt.sign({ sid: claims.sessionId, cid: claims.campaignId }, current.privateKey, {
        algorithm: "ES256",
        keyid: current.kid,
        subject: claims.userId,
        issuer: options.issuer,
        audience: options.audience,
        expiresIn: ttlS,
      });
    },
    verify(token) {
      const decoded = decodedToken(token);
      // Only ES256 under one of our key ids: the header cannot choose another algorithm or key.
      if (decoded.header.alg !== "ES256") throw invalidToken(`token algorithm ${String(decoded.header.alg)} is not accepted (accepted: ES256)`);
      const key = decoded.header.kid === undefined ? undefined : byKid.get(decoded.header.kid);
      if (!key) throw invalidToken("token key id is not one of this service's keys");
      const payload = verifiedClaims(token, key.publicKey, { algorithms: ["ES256"], issuer: options.issuer, audience: options.audience, clockTolerance: 5 });
      const violation = checkTokenBounds(decoded.header as unknown as Record<string, unknown>, payload, options.maxLifetimeS);
      if (violation) throw tokenBoundsError(violation);
      if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || typeof payload.cid !== "string") {
        throw invalidToken("token must carry sub, sid and cid");
      }
      return { userId: payload.sub, sessionId: payload.sid, campaignId: payload.cid };
    },
  };
}
