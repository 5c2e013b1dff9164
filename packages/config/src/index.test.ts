// parseEnv: defaults and coercion, and errors naming a missing or malformed variable and its rule.
import { ConfigError } from "@pointwise/errors";
import { z } from "zod";
import { envVars, parseEnv, redisEnv, serviceEnv, streamEnv } from "./index";

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
