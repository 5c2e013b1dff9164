// A portal token's signature and registered claims: the claims when they check out, token-expired or invalid-token otherwise.
import { generateKeyPairSync } from "node:crypto";
import { AuthError } from "@pointwise/errors";
import jwt from "jsonwebtoken";
import { decodedToken, invalidToken, verifiedClaims } from "./signed-token";

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const other = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const options = { algorithms: ["ES256" as const], issuer: "portal", audience: "pointwise" };
const now = Math.floor(Date.now() / 1000);
const sign = (payload: object | string, key = privateKey, extra: jwt.SignOptions = {}) =>
  jwt.sign(payload, key, { algorithm: "ES256", ...(typeof payload === "string" ? {} : { issuer: "portal", audience: "pointwise" }), ...extra });

/** The code and message an AuthError thrown by `fn` carries. */
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    const { code, message } = err as { code: string; message: string };
    return `${code}: ${message}`;
  }
  throw new Error("expected a refusal");
};

describe("verifiedClaims", () => {
  it("returns the claims of a token signed with the key, for the issuer and audience asked", () => {
    const claims = verifiedClaims(sign({ sub: "u-1", exp: now + 60 }), publicKey, options);
    expect(claims).toMatchObject({ sub: "u-1", exp: now + 60, iss: "portal", aud: "pointwise" });
  });

  it("refuses an expired token with token-expired", () => {
    expect(refusal(() => verifiedClaims(sign({ sub: "u-1", exp: now - 60 }), publicKey, options))).toBe("token-expired: token expired");
  });

  it.each([
    ["another key's signature", () => sign({ sub: "u-1", exp: now + 60 }, other.privateKey), options],
    ["another issuer", () => sign({ sub: "u-1", exp: now + 60 }, privateKey, { issuer: "elsewhere" }), options],
    ["another audience", () => sign({ sub: "u-1", exp: now + 60 }, privateKey, { audience: "elsewhere" }), options],
    ["a token not valid before an hour from now", () => sign({ sub: "u-1", exp: now + 7200, nbf: now + 3600 }), options],
    ["an algorithm not asked for", () => sign({ sub: "u-1", exp: now + 60 }), { ...options, algorithms: ["RS256" as const] }],
    ["a text payload", () => sign("just text"), { algorithms: ["ES256" as const] }],
    ["no token at all", () => "not.a.token", options],
  ])("refuses %s with invalid-token, without jsonwebtoken's message", (_name, token, opts) => {
    expect(refusal(() => verifiedClaims(token(), publicKey, opts))).toBe("invalid-token: invalid token");
  });
});

describe("decodedToken", () => {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

  it("returns the header and claims of a token without checking its signature", () => {
    const decoded = decodedToken(sign({ sub: "u-1", exp: now + 60 }, other.privateKey, { keyid: "k1" }));
    expect(decoded.header).toMatchObject({ alg: "ES256", typ: "JWT", kid: "k1" });
    expect(decoded.payload).toMatchObject({ sub: "u-1", exp: now + 60 });
  });

  it.each([
    ["a payload that is not JSON under typ JWT", `${part({ alg: "ES256", typ: "JWT" })}.eA.c2ln`],
    ["a payload that is not JSON without typ", `${part({ alg: "ES256" })}.eA.c2ln`],
    ["a text payload", `${part({ alg: "ES256" })}.${Buffer.from('"just text"').toString("base64url")}.c2ln`],
    ["a header that is not JSON", "eA.eA.c2ln"],
    ["no token at all", "not-a-token"],
  ])("refuses %s with invalid-token", (_name, token) => {
    expect(refusal(() => decodedToken(token))).toBe("invalid-token: invalid token");
  });
});

describe("invalidToken", () => {
  it("is an AuthError invalid-token with the reason given, or a plain one", () => {
    expect(invalidToken("token must carry sub")).toBeInstanceOf(AuthError);
    expect(invalidToken("token must carry sub")).toMatchObject({ code: "invalid-token", message: "token must carry sub" });
    expect(invalidToken()).toMatchObject({ code: "invalid-token", message: "invalid token" });
  });
});
