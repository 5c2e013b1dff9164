// Verifying portal JWTs: HS256, RS256 and ES256, refused algorithms, claims, expiry and clock skew.
import { generateKeyPairSync } from "node:crypto";
import { AuthError, ConfigError } from "@pointwise/errors";
import jwt from "jsonwebtoken";
import { createPortalVerifier } from "./jwt";

const secret = "portal-secret-portal-secret-portal-secret-0123";
const claims = { iss: "portal", aud: "read" };
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const rsaPem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
const ecPem = ec.publicKey.export({ type: "spki", format: "pem" }).toString();
const exp = () => Math.floor(Date.now() / 1000) + 600;

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof AuthError || err instanceof ConfigError) return err.code;
    throw err;
  }
  return "accepted";
}

/** An unsigned token: header {alg: none}. */
function unsigned(payload: object): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(payload)}.`;
}

describe("portal JWT verification", () => {
  const hs = createPortalVerifier({ secret, issuer: "portal", audience: "read" });
  const both = createPortalVerifier({ secret, publicKeyPem: rsaPem, issuer: "portal", audience: "read" });

  it("accepts an HS256 token with the shared secret and returns its sub", () => {
    const token = jwt.sign({ ...claims, sub: "u1", exp: exp() }, secret, { algorithm: "HS256" });
    expect(hs?.verify(token)).toBe("u1");
  });

  it("accepts RS256 and ES256 tokens signed with the private key of the configured public key", () => {
    expect(both?.verify(jwt.sign({ ...claims, sub: "u2", exp: exp() }, rsa.privateKey, { algorithm: "RS256" }))).toBe("u2");
    const es = createPortalVerifier({ publicKeyPem: ecPem, issuer: "portal", audience: "read" });
    expect(es?.algorithms).toEqual(["ES256"]);
    expect(es?.verify(jwt.sign({ ...claims, sub: "u3", exp: exp() }, ec.privateKey, { algorithm: "ES256" }))).toBe("u3");
  });

  it("refuses alg none, algorithms it was not configured for, and HS256 signed with the public key", () => {
    expect(failure(() => hs?.verify(unsigned({ ...claims, sub: "u1", exp: exp() })))).toBe("invalid-token");
    expect(failure(() => hs?.verify(jwt.sign({ ...claims, sub: "u1", exp: exp() }, rsa.privateKey, { algorithm: "RS256" })))).toBe("invalid-token");
    expect(failure(() => both?.verify(jwt.sign({ ...claims, sub: "u1", exp: exp() }, secret, { algorithm: "HS384" })))).toBe("invalid-token");
    const rsOnly = createPortalVerifier({ publicKeyPem: rsaPem, issuer: "portal", audience: "read" });
    const confused = jwt.sign({ ...claims, sub: "u1", exp: exp() }, rsaPem, { algorithm: "HS256", allowInsecureKeySizes: true } as jwt.SignOptions);
    expect(failure(() => rsOnly?.verify(confused))).toBe("invalid-token");
  });

  it("refuses a wrong signature, issuer or audience, a missing exp or sub, and garbage", () => {
    expect(failure(() => hs?.verify(jwt.sign({ ...claims, sub: "u1", exp: exp() }, `${secret}x`, { algorithm: "HS256" })))).toBe("invalid-token");
    expect(failure(() => hs?.verify(jwt.sign({ iss: "other", aud: "read", sub: "u1", exp: exp() }, secret)))).toBe("invalid-token");
    expect(failure(() => hs?.verify(jwt.sign({ iss: "portal", aud: "other", sub: "u1", exp: exp() }, secret)))).toBe("invalid-token");
    expect(failure(() => hs?.verify(jwt.sign({ ...claims, sub: "u1" }, secret)))).toBe("invalid-token");
    expect(failure(() => hs?.verify(jwt.sign({ ...claims, exp: exp() }, secret)))).toBe("invalid-token");
    expect(failure(() => hs?.verify("not.a.token"))).toBe("invalid-token");
  });

  it("answers token-expired for a correctly signed token past exp (beyond the 5 s tolerance)", () => {
    const token = jwt.sign({ ...claims, sub: "u1", exp: Math.floor(Date.now() / 1000) - 60 }, secret);
    expect(failure(() => hs?.verify(token))).toBe("token-expired");
    const forged = jwt.sign({ ...claims, sub: "u1", exp: Math.floor(Date.now() / 1000) - 60 }, `${secret}x`);
    expect(failure(() => hs?.verify(forged))).toBe("invalid-token");
  });

  it("takes aud as an array that contains the audience, honours nbf, and allows 5 s of clock skew on exp", () => {
    const now = Math.floor(Date.now() / 1000);
    const sign = (payload: object) => jwt.sign({ iss: "portal", sub: "u5", ...payload }, secret, { algorithm: "HS256" });
    expect(failure(() => hs?.verify(sign({ aud: ["other", "read"], exp: exp() })))).toBe("accepted");
    expect(failure(() => hs?.verify(sign({ aud: ["other", "another"], exp: exp() })))).toBe("invalid-token");
    expect(failure(() => hs?.verify(sign({ aud: "read", exp: exp(), nbf: now + 60 })))).toBe("invalid-token");
    expect(failure(() => hs?.verify(sign({ aud: "read", exp: exp(), nbf: now - 10 })))).toBe("accepted");
    expect(failure(() => hs?.verify(sign({ aud: "read", exp: now - 2 })))).toBe("accepted");
    expect(failure(() => hs?.verify(sign({ aud: "read", exp: now - 30 })))).toBe("token-expired");
  });

  it("is off without keys, and refuses weak or unsupported public keys at start", () => {
    expect(createPortalVerifier({ issuer: "portal", audience: "read" })).toBeNull();
    const small = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" }).toString();
    expect(failure(() => createPortalVerifier({ publicKeyPem: small, issuer: "p", audience: "a" }))).toBe("config-invalid");
    const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" }).publicKey.export({ type: "spki", format: "pem" }).toString();
    expect(failure(() => createPortalVerifier({ publicKeyPem: p384, issuer: "p", audience: "a" }))).toBe("config-invalid");
    expect(failure(() => createPortalVerifier({ publicKeyPem: "-----BEGIN PUBLIC KEY-----\nxx\n-----END PUBLIC KEY-----", issuer: "p", audience: "a" }))).toBe(
      "config-invalid",
    );
  });

  describe("bounds of a correctly signed token", () => {
    // One fixed instant for signing and checking: a second passing in between would change "claims N s".
    const fixed = Math.floor(Date.now() / 1000);
    const hour = createPortalVerifier({ secret, issuer: "portal", audience: "read", maxLifetimeS: 3600, now: () => fixed * 1000 });
    const now = () => fixed;
    const reason = (fn: () => unknown): string => {
      try {
        fn();
      } catch (err) {
        if (err instanceof AuthError) return `${err.code}: ${err.message}`;
        throw err;
      }
      return "accepted";
    };

    it("refuses a token without exp as invalid-token, whatever else it carries", () => {
      const token = jwt.sign({ ...claims, sub: "u1", iat: now() }, secret, { algorithm: "HS256" });
      expect(reason(() => hour?.verify(token))).toBe("invalid-token: token must carry exp");
    });

    it("refuses any crit header as invalid-token (RFC 7515 4.1.11: no extension is understood here)", () => {
      const withCrit = (crit: unknown) =>
        jwt.sign({ ...claims, sub: "u1", exp: exp() }, secret, { algorithm: "HS256", header: { alg: "HS256", crit, b64: false } as jwt.JwtHeader });
      expect(reason(() => hour?.verify(withCrit(["b64"])))).toBe("invalid-token: token header crit lists extensions this service does not understand: b64");
      expect(reason(() => hour?.verify(withCrit(["exp-ext", "x"])))).toBe(
        "invalid-token: token header crit lists extensions this service does not understand: exp-ext, x",
      );
      expect(reason(() => hour?.verify(withCrit([])))).toBe("invalid-token: token header crit lists extensions this service does not understand: (empty)");
    });

    it("refuses a life longer than the maximum by exp - iat, or by exp - now without iat, with token-lifetime-too-long", () => {
      const t = now();
      // jsonwebtoken keeps a given iat, and adds none with noTimestamp.
      const sign = (payload: { iat?: number; exp: number }) =>
        jwt.sign({ ...claims, sub: "u1", ...payload }, secret, { algorithm: "HS256", noTimestamp: payload.iat === undefined });
      // 3600 s is the maximum itself: accepted; one second more is not.
      expect(reason(() => hour?.verify(sign({ iat: t, exp: t + 3600 })))).toBe("accepted");
      expect(reason(() => hour?.verify(sign({ iat: t, exp: t + 3601 })))).toBe(
        "token-lifetime-too-long: token lifetime (exp - iat) must be at most 3600 s; this one claims 3601 s",
      );
      // Issued a day ago for 25 hours: 1 hour left, but it claims 25 hours.
      expect(reason(() => hour?.verify(sign({ iat: t - 86_400, exp: t + 3600 })))).toMatch(/^token-lifetime-too-long: .* claims 90000 s$/);
      expect(reason(() => hour?.verify(sign({ exp: t + 7200 })))).toMatch(/^token-lifetime-too-long: .* claims 7200 s$/);
      expect(reason(() => hour?.verify(sign({ exp: t + 600 })))).toBe("accepted");
      // An iat in the future does not stretch the life: counted from now.
      expect(reason(() => hour?.verify(sign({ iat: t + 86_400, exp: t + 86_400 + 60 })))).toMatch(/^token-lifetime-too-long: /);
    });

    it("allows a day by default (PORTAL_JWT_MAX_AGE_S unset)", () => {
      const t = now();
      // jsonwebtoken keeps a given iat, and adds none with noTimestamp.
      const sign = (payload: { iat?: number; exp: number }) =>
        jwt.sign({ ...claims, sub: "u1", ...payload }, secret, { algorithm: "HS256", noTimestamp: payload.iat === undefined });
      expect(reason(() => hs?.verify(sign({ iat: t, exp: t + 86_400 })))).toBe("accepted");
      expect(reason(() => hs?.verify(sign({ iat: t, exp: t + 86_401 })))).toMatch(/^token-lifetime-too-long: /);
    });
  });
});
