// admin-api settings: what an empty or malformed variable does, and every bad variable named at once.
import { loadEnv } from "./env";

const required = {
  DATABASE_URL: "postgres://127.0.0.1:5432/x",
  NATS_URL: "nats://127.0.0.1:4222",
  ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789",
};

/** The message of the ConfigError loading `env` throws. */
function refusal(env: Record<string, string>): string {
  try {
    loadEnv(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("expected the settings to be refused");
}

describe("admin-api settings", () => {
  it("names a missing secret", () => {
    const { ADMIN_JWT_SECRET: _, ...rest } = required;
    expect(refusal(rest)).toMatch(/ADMIN_JWT_SECRET/);
  });

  it("refuses an empty HOST, which would listen on every interface", () => {
    expect(refusal({ ...required, HOST: "" })).toMatch(/HOST: must not be empty/);
  });

  it("takes an empty numeric variable as unset (its default), not as 0", () => {
    const env = loadEnv({ ...required, ADMIN_SESSION_MAX_AGE_S: "", DRY_RUN_MAX_EVENTS: "", ADMIN_SIGN_IN_ATTEMPTS: "" });
    expect([env.ADMIN_SESSION_MAX_AGE_S, env.DRY_RUN_MAX_EVENTS, env.ADMIN_SIGN_IN_ATTEMPTS]).toEqual([12 * 3600, 200_000, 5]);
  });

  it("refuses a claims RPC URL that does not parse, naming it without repeating the key it holds", () => {
    const message = refusal({ ...required, CLAIMS_RPC_URL: "https://rpc.example.org:99999/v3/k3y-in-the-path" });
    expect(message).toMatch(/CLAIMS_RPC_URL: /);
    expect(message).not.toMatch(/k3y-in-the-path/);
  });

  it("refuses a claims RPC URL whose host does not follow its //, which the parser would take from the path", () => {
    // new URL reads https:///v3/k3y-in-the-path as the host v3.
    const message = refusal({ ...required, CLAIMS_RPC_URL: "https:///v3/k3y-in-the-path" });
    expect(message).toMatch(/^Invalid environment: CLAIMS_RPC_URL: must be a well-formed URL with a host: http\(s\):\/\/host\[:port\]\[\/path\];/);
    expect(message).not.toMatch(/k3y-in-the-path/);
  });

  it("names a malformed claim setting and the one missing beside it in one message", () => {
    const message = refusal({ ...required, CLAIMS_RPC_URL: "http://127.0.0.1:8545", CLAIMS_CONTRACT: `0x${"1".repeat(40)}`, CLAIMS_CHAIN_ID: "abc" });
    expect(message).toMatch(/CLAIMS_CHAIN_ID/);
    expect(message).toMatch(/CLAIMS_PUBLISHER_KEY: is required with CLAIMS_RPC_URL, CLAIMS_CONTRACT/);
  });
});
