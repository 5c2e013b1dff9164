// parseEnv: defaults and coercion, and errors naming a missing or malformed variable and its rule.
import { ConfigError } from "@pointwise/errors";
import { z } from "zod";
import { envVars, isPlaceholder, parseEnv, redisEnv, serviceEnv, streamEnv } from "./index";

const schema = z.object({ ...serviceEnv, ...redisEnv, ...streamEnv, PORT: envVars.port(3000) });
const good = { DATABASE_URL: "postgres://127.0.0.1/x", REDIS_URL: "redis://127.0.0.1:6379", NATS_URL: "nats://127.0.0.1:4222" };

describe("parseEnv", () => {
  it("applies defaults and coerces numbers", () => {
    const env = parseEnv(schema, good);
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_SCHEMA).toBe("public");
    expect(env.NAMESPACE).toBe("pointwise");
  });

  it("gives start-up a minute by default and refuses a deadline under a second", () => {
    expect(parseEnv(schema, good).STARTUP_TIMEOUT_MS).toBe(60_000);
    expect(parseEnv(schema, { ...good, STARTUP_TIMEOUT_MS: "2500" }).STARTUP_TIMEOUT_MS).toBe(2500);
    expect(() => parseEnv(schema, { ...good, STARTUP_TIMEOUT_MS: "999" })).toThrow(/STARTUP_TIMEOUT_MS: /);
  });

  it("names a missing variable", () => {
    expect(() => parseEnv(schema, { ...good, REDIS_URL: undefined })).toThrow(new ConfigError("Invalid environment: REDIS_URL is required"));
  });

  it("names a malformed variable and the rule it breaks", () => {
    expect(() => parseEnv(schema, { ...good, NATS_URL: "http://x", PORT: "70000" })).toThrow(
      /NATS_URL: must be a URL starting with nats:\/\/ or tls:\/\/.*PORT/,
    );
  });
});

describe("example values", () => {
  it.each([
    ["change-me-change-me-change-me-change-me-0000", true],
    ["changeme", true],
    ["change_me", true],
    ["your-price-api-key", true],
    ["REPLACE_WITH_YOUR_KEY", true],
    ["<api key>", true],
    ["pw_live_EXAMPLE_KEY_DO_NOT_USE", true],
    ["sk-xxxxxxxxxxxx", true],
    ["a placeholder", true],
    ["3f9a1c7e5b2d4086a1c3e5f7092b4d6f", false],
    ["test-only-secret-test-only-secret-0123456789", false],
    ["https://eth-mainnet.g.alchemy.com/v2/Qx81LmZ", false],
  ])("takes %s as an example value: %s", (value, expected) => {
    expect(isPlaceholder(value)).toBe(expected);
  });

  it("refuses a secret that is short or an example value, naming the variable and both rules", () => {
    const secret = z.object({ S: envVars.secret(32) });
    expect(parseEnv(secret, { S: "3f9a1c7e5b2d4086a1c3e5f7092b4d6f" }).S).toBe("3f9a1c7e5b2d4086a1c3e5f7092b4d6f");
    expect(() => parseEnv(secret, { S: "short" })).toThrow(new ConfigError("Invalid environment: S: must be at least 32 characters"));
    expect(() => parseEnv(secret, { S: "change-me-change-me-change-me-change-me" })).toThrow(
      new ConfigError("Invalid environment: S: must not be an example value (change-me, your-..., <...>): make a random one, e.g. `openssl rand -hex 32`"),
    );
  });
});
