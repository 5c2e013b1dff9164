// Portal tokens checked through a JWKS served over HTTP: key ids, pinned algorithms, rotation and an unreachable endpoint.
import { createHmac, generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { BaseError } from "@pointwise/errors";
import { createLogger } from "@pointwise/logger";
import jwt from "jsonwebtoken";
import { createJwksSource } from "./jwks";
import { createPortalVerifier } from "./jwt";

const logger = createLogger({ service: "jwks-test", level: "silent" });
const ec = () => generateKeyPairSync("ec", { namedCurve: "P-256" });
const jwkOf = (key: KeyObject, kid: string, extra: object = {}) => ({ ...(key.export({ format: "jwk" }) as object), kid, use: "sig", ...extra });
const claims = () => ({ sub: "u1", iss: "portal", aud: "read", exp: Math.floor(Date.now() / 1000) + 300 });

let published: object[] = [];
let fetches = 0;
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    fetches++;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: published }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/jwks.json`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function outcome(verifier: ReturnType<typeof createPortalVerifier>, token: string): Promise<string> {
  try {
    await verifier?.prepare(token);
    return verifier?.verify(token) ?? "no verifier";
  } catch (err) {
    if (err instanceof BaseError) return err.code;
    throw err;
  }
}

describe("portal tokens through a JWKS", () => {
  it("accepts an ES256 token whose kid is published, and refuses one whose kid is not", async () => {
    const a = ec();
    published = [jwkOf(a.publicKey, "a", { alg: "ES256" })];
    const verifier = createPortalVerifier({ issuer: "portal", audience: "read", jwks: createJwksSource({ url, logger, minRefreshMs: 0 }) });
    expect(await outcome(verifier, jwt.sign(claims(), a.privateKey, { algorithm: "ES256", keyid: "a" }))).toBe("u1");
    expect(await outcome(verifier, jwt.sign(claims(), a.privateKey, { algorithm: "ES256", keyid: "b" }))).toBe("invalid-token");
    expect(await outcome(verifier, jwt.sign(claims(), a.privateKey, { algorithm: "ES256" }))).toBe("invalid-token");
  });

  it("picks up a rotated-in key by refetching for its unknown kid, and drops a key that is no longer published", async () => {
    const a = ec();
    const b = ec();
    published = [jwkOf(a.publicKey, "a")];
    const verifier = createPortalVerifier({ issuer: "portal", audience: "read", jwks: createJwksSource({ url, logger, minRefreshMs: 0 }) });
    expect(await outcome(verifier, jwt.sign(claims(), a.privateKey, { algorithm: "ES256", keyid: "a" }))).toBe("u1");
    published = [jwkOf(b.publicKey, "b")];
    expect(await outcome(verifier, jwt.sign(claims(), b.privateKey, { algorithm: "ES256", keyid: "b" }))).toBe("u1");
    expect(await outcome(verifier, jwt.sign(claims(), a.privateKey, { algorithm: "ES256", keyid: "a" }))).toBe("invalid-token");
  });

  it("refetches for unknown kids at most once per minRefreshMs", async () => {
    const a = ec();
    published = [jwkOf(a.publicKey, "a")];
    const verifier = createPortalVerifier({ issuer: "portal", audience: "read", jwks: createJwksSource({ url, logger, minRefreshMs: 60_000 }) });
    const before = fetches;
    for (const kid of ["x1", "x2", "x3", "x4"])
      expect(await outcome(verifier, jwt.sign(claims(), a.privateKey, { algorithm: "ES256", keyid: kid }))).toBe("invalid-token");
    expect(fetches - before).toBe(1);
  });

  it("refuses alg none, HS256 keyed with the published key's PEM, an algorithm the published key does not carry, and a payload that is not JSON", async () => {
    const a = ec();
    published = [jwkOf(a.publicKey, "a")];
    const verifier = createPortalVerifier({ issuer: "portal", audience: "read", jwks: createJwksSource({ url, logger, minRefreshMs: 0 }) });
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    expect(await outcome(verifier, `${part({ alg: "none", kid: "a" })}.${part(claims())}.`)).toBe("invalid-token");
    const pem = a.publicKey.export({ type: "spki", format: "pem" }).toString();
    const head = part({ alg: "HS256", typ: "JWT", kid: "a" });
    const body = part(claims());
    expect(await outcome(verifier, `${head}.${body}.${createHmac("sha256", pem).update(`${head}.${body}`).digest("base64url")}`)).toBe("invalid-token");
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
    expect(await outcome(verifier, jwt.sign(claims(), rsa.privateKey, { algorithm: "RS256", keyid: "a" }))).toBe("invalid-token");
    // typ JWT with a payload that is not JSON: jsonwebtoken's decode throws a SyntaxError of its own, before any key is chosen.
    expect(await outcome(verifier, `${part({ alg: "ES256", typ: "JWT", kid: "a" })}.eA.${"A".repeat(86)}`)).toBe("invalid-token");
  });

  it("skips published keys that are private, weak, of another curve or marked for encryption", async () => {
    const good = ec();
    const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" });
    const enc = ec();
    published = [
      jwkOf(good.privateKey, "private"),
      jwkOf(p384.publicKey, "p384"),
      jwkOf(enc.publicKey, "enc", { use: "enc" }),
      jwkOf(generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey, "weak"),
    ];
    const source = createJwksSource({ url, logger, minRefreshMs: 0 });
    await source.refreshFor("private");
    expect(["private", "p384", "enc", "weak"].map((kid) => source.keyFor(kid))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("answers jwks-unavailable while no key set could be fetched yet", async () => {
    const a = ec();
    const verifier = createPortalVerifier({
      issuer: "portal",
      audience: "read",
      jwks: createJwksSource({ url: "http://127.0.0.1:9/jwks.json", logger, timeoutMs: 500 }),
    });
    expect(await outcome(verifier, jwt.sign(claims(), a.privateKey, { algorithm: "ES256", keyid: "a" }))).toBe("jwks-unavailable");
  });
});
