// portal-api's environment: signing keys, chain ids and OAuth settings are checked at start, naming the variable.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { ConfigError } from "@pointwise/errors";
import { loadEnv } from "./env";
import { createTokenKeys } from "./keys";

const base = { DATABASE_URL: "postgres://x@127.0.0.1/db", REDIS_URL: "redis://127.0.0.1", NATS_URL: "nats://127.0.0.1" };
const ecPem = () => generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();

function problem(env: Record<string, string>): string {
  try {
    loadEnv({ ...base, ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return "accepted";
}

describe("portal-api environment", () => {
  it("needs no REDIS_URL or STREAM_REPLICAS: portal-api uses no Redis and creates no stream", () => {
    const { REDIS_URL: _unused, ...withoutRedis } = base;
    const env = loadEnv({ ...withoutRedis, PORTAL_SIGNING_KEYS: ecPem(), STREAM_REPLICAS: "7" });
    expect(env).not.toHaveProperty("REDIS_URL");
    expect(env).not.toHaveProperty("STREAM_REPLICAS");
  });

  it("needs PORTAL_SIGNING_KEYS and reads several PEM keys, on one line with \\n too", () => {
    expect(problem({})).toBe("Invalid environment: PORTAL_SIGNING_KEYS is required");
    const [a, b] = [ecPem(), ecPem()];
    const env = loadEnv({ ...base, PORTAL_SIGNING_KEYS: `${a}${b}`.replace(/\n/g, "\\n") });
    expect(env.PORTAL_SIGNING_KEYS).toEqual([a.trim(), b.trim()]);
    expect(problem({ PORTAL_SIGNING_KEYS: "secret" })).toMatch(/^Invalid environment: PORTAL_SIGNING_KEYS: must hold at least one PEM private key/);
  });

  it("refuses an RSA, P-384 or unreadable key by its position", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const options = { issuer: "i", audience: "a", maxLifetimeS: 900 };
    expect(() => createTokenKeys([ecPem(), rsa], options)).toThrow("PORTAL_SIGNING_KEYS: key 2 must be a P-256 EC key (ES256)");
    expect(() => createTokenKeys([p384], options)).toThrow("PORTAL_SIGNING_KEYS: key 1 must be a P-256 EC key (ES256)");
    expect(() => createTokenKeys(["-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"], options)).toThrow(
      "PORTAL_SIGNING_KEYS: key 1 is not a readable PEM private key",
    );
  });

  it("publishes every key under its RFC 7638 thumbprint and signs with the first", () => {
    const keys = createTokenKeys([ecPem(), ecPem()], { issuer: "i", audience: "a", maxLifetimeS: 900 });
    const [first, second] = keys.jwks().keys;
    // RFC 7638 §3: SHA-256 over {"crv","kty","x","y"} in that order, base64url, written out here by hand.
    const { createHash } = require("node:crypto") as typeof import("node:crypto");
    const expected = createHash("sha256").update(`{"crv":"P-256","kty":"EC","x":"${first?.x}","y":"${first?.y}"}`).digest("base64url");
    expect(first?.kid).toBe(expected);
    expect(second?.kid).not.toBe(first?.kid);
    const token = keys.sign({ userId: "u", sessionId: "s", campaignId: "c" }, 60);
    expect(JSON.parse(Buffer.from(token.split(".")[0] as string, "base64url").toString())).toEqual({ alg: "ES256", typ: "JWT", kid: expected });
  });

  it("checks chain ids, the domain, the OAuth providers' JSON, CORS origins and the SMTP settings", () => {
    const keys = { PORTAL_SIGNING_KEYS: ecPem() };
    expect(problem({ ...keys, PORTAL_EVM_CHAIN_IDS: "1,x" })).toMatch(/PORTAL_EVM_CHAIN_IDS: must be a comma-separated list of chain ids/);
    expect(problem({ ...keys, PORTAL_DOMAIN: "https://portal.example.com" })).toMatch(/PORTAL_DOMAIN: must be a host name/);
    expect(problem({ ...keys, PORTAL_OAUTH_PROVIDERS: "{" })).toMatch(/PORTAL_OAUTH_PROVIDERS: must be a JSON object/);
    expect(problem({ ...keys, PORTAL_OAUTH_PROVIDERS: '{"myspace":{"client_id":"a"}}' })).toMatch(/PORTAL_OAUTH_PROVIDERS/);
    expect(problem({ ...keys, PORTAL_OAUTH_PROVIDERS: '{"x":{}}' })).toMatch(/PORTAL_OAUTH_PROVIDERS\.x\.client_id/);
    expect(problem({ ...keys, CORS_ALLOWED_ORIGINS: "https://a.example/path" })).toMatch(/CORS_ALLOWED_ORIGINS: https:\/\/a.example\/path is not an origin/);
    expect(problem({ ...keys, PORTAL_OAUTH_PROVIDERS: '{"github":{"client_id":"a","client_secret":"b"}}' })).toBe("accepted");
    expect(problem({ ...keys, PORTAL_MAILER: "smtp" })).toBe(
      "Invalid environment: PORTAL_SMTP_URL: is required when PORTAL_MAILER is smtp; PORTAL_MAIL_FROM: is required when PORTAL_MAILER is smtp",
    );
    expect(problem({ ...keys, PORTAL_MAILER: "smtp", PORTAL_SMTP_URL: "http://mail", PORTAL_MAIL_FROM: "a@b.c" })).toMatch(
      /PORTAL_SMTP_URL: must be a URL starting with smtp:\/\/ or smtps:\/\//,
    );
  });

  it("refuses example voucher and claim keys, and a voucher signer without its contract", () => {
    const keys = { PORTAL_SIGNING_KEYS: ecPem() };
    const contract = { CLAIMS_CONTRACT: `0x${"12".repeat(20)}`, CLAIMS_CHAIN_ID: "8453" };
    expect(problem({ ...keys, VOUCHER_CODE_KEY: "0".repeat(64) })).toBe("Invalid environment: VOUCHER_CODE_KEY: must be random bytes, not one repeated digit");
    expect(problem({ ...keys, VOUCHER_CODE_KEY: "abc" })).toMatch(/VOUCHER_CODE_KEY: must be 64 lowercase hex digits/);
    // The first account of the public hardhat/anvil mnemonic.
    const hardhat0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    expect(problem({ ...keys, ...contract, CLAIMS_VOUCHER_SIGNER_KEY: hardhat0 })).toBe(
      "Invalid environment: CLAIMS_VOUCHER_SIGNER_KEY: must not be a public test key (hardhat/anvil mnemonic)",
    );
    expect(problem({ ...keys, ...contract, CLAIMS_VOUCHER_SIGNER_KEY: `0x${"0".repeat(64)}` })).toMatch(
      /CLAIMS_VOUCHER_SIGNER_KEY: must not be an obviously made-up key/,
    );
    expect(problem({ ...keys, CLAIMS_CHAIN_ID: "0" })).toBe("Invalid environment: CLAIMS_CHAIN_ID: must be a chain id");
    expect(problem({ ...keys, CLAIMS_VOUCHER_SIGNER_KEY: "0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63" })).toBe(
      "Invalid environment: CLAIMS_CONTRACT: CLAIMS_CONTRACT and CLAIMS_CHAIN_ID are required with CLAIMS_VOUCHER_SIGNER_KEY",
    );
  });
});
