// Checking a portal token's signature and registered claims with jsonwebtoken: one mapping of its failures to our codes.
import type { KeyObject } from "node:crypto";
import { AuthError } from "@pointwise/errors";
import jwt from "jsonwebtoken";

/** The error of a token refused for anything but its expiry: 401 `invalid-token`, saying why where that tells a forger nothing. */
export function invalidToken(message = "invalid token"): AuthError {
  return new AuthError("invalid-token", message);
}

/**
 * A token's header and payload before its signature is checked (to choose the key that checks it): `invalid-token`
 * unless it is a JWT whose payload is a JSON object. (jsonwebtoken's decode throws a SyntaxError of its own on a
 * payload that is not JSON when the header says `typ: JWT`.)
 */
export function decodedToken(token: string): jwt.Jwt & { payload: jwt.JwtPayload } {
  let decoded: jwt.Jwt | null;
  try {
    decoded = jwt.decode(token, { complete: true });
  } catch {
    throw invalidToken();
  }
  if (decoded === null || typeof decoded.payload === "string") throw invalidToken();
  return decoded as jwt.Jwt & { payload: jwt.JwtPayload };
}

/**
 * The claims of a token whose signature under `key` and whose registered claims (`options`: algorithms, issuer,
 * audience, clock) check out. An expired token is AuthError `token-expired`; every other failure (signature, issuer,
 * audience, not-before, a payload that is not a JSON object) is `invalid-token`, without jsonwebtoken's own message.
 */
export function verifiedClaims(token: string, key: string | KeyObject, options: jwt.VerifyOptions & { complete?: false }): jwt.JwtPayload {
  let verified: string | jwt.JwtPayload;
  try {
    verified = jwt.verify(token, key, options);
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) throw new AuthError("token-expired", "token expired");
    throw invalidToken();
  }
  if (typeof verified === "string") throw invalidToken();
  return verified;
}
