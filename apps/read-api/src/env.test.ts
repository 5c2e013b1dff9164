// read-api settings: the one-minute default cache window and its lower bound, and the portal token life limit.
import { loadEnv } from "./env";

const required = { DATABASE_URL: "postgres://127.0.0.1:5432/x", REDIS_URL: "redis://127.0.0.1:6379", NATS_URL: "nats://127.0.0.1:4222" };

describe("read-api settings", () => {
  it("caches leaderboards and user scores for one minute unless told otherwise, as the interface says", () => {
    expect(loadEnv(required).CACHE_TTL_MS).toBe(60_000);
  });

  it("refuses a cache window under a second with a message naming the variable", () => {
    expect(() => loadEnv({ ...required, CACHE_TTL_MS: "500" })).toThrow(/CACHE_TTL_MS/);
  });

  it("lets portal tokens claim a life of at most a day unless told otherwise, and refuses a maximum under a minute", () => {
    expect(loadEnv(required).PORTAL_JWT_MAX_AGE_S).toBe(86_400);
    expect(loadEnv({ ...required, PORTAL_JWT_MAX_AGE_S: "900" }).PORTAL_JWT_MAX_AGE_S).toBe(900);
    expect(() => loadEnv({ ...required, PORTAL_JWT_MAX_AGE_S: "10" })).toThrow(/PORTAL_JWT_MAX_AGE_S/);
  });

  it("refuses an example PORTAL_JWT_SECRET: anyone could sign a participant's token with it", () => {
    expect(() => loadEnv({ ...required, PORTAL_JWT_SECRET: "change-me-change-me-change-me-change-me-1111" })).toThrow(
      /PORTAL_JWT_SECRET: must not be an example value/,
    );
  });
});
