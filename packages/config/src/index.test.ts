// parseEnv: defaults and coercion, and errors naming a missing or malformed variable and its rule.
import { ConfigError } from "@pointwise/errors";
import { z } from "zod";
import { envVars, hostUrlProblem, isPlaceholder, parseEnv, redisEnv, serviceEnv, streamEnv, whenParsed } from "./index";

const schema = z.object({
  ...serviceEnv,
  ...redisEnv,
  ...streamEnv,
  PORT: envVars.port(3000),
  RPC_URL: envVars.url(["http", "https"]).optional(),
  SMTP_URL: envVars.url(["smtp", "smtps"]).optional(),
});
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

describe("connection URLs", () => {
  const refused = (vars: Record<string, string>) => {
    try {
      parseEnv(schema, { ...good, ...vars });
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error("accepted");
  };

  it.each([
    ["REDIS_URL", "redis://:s3cretpw@ho st:6379", "must be a well-formed URL"],
    ["REDIS_URL", "redis://ho st", "must be a well-formed URL"],
    ["DATABASE_URL", "postgres://user:s3cretpw@ho st/db", "must be a well-formed URL"],
    ["DATABASE_URL", "postgres://user:s3cretpw@db:99999/db", "a port from 1 to 65535"],
    ["DATABASE_URL", "postgres://user:s3cretpw@db:0/db", "must have a port from 1 to 65535"],
    ["NATS_URL", "nats://s3cretpw@ho st:4222", "must be a well-formed URL"],
    ["NATS_URL", "nats://127.0.0.1:4222,nats://user:s3cretpw@ho st:4222", "server 2 of 2: must be a well-formed URL"],
    ["NATS_URL", "nats://127.0.0.1:4222,http://user:s3cretpw@bus:4222", "server 2 of 2: must be a URL starting with nats:// or tls://"],
    ["NATS_URL", "nats://user:s3cretpw@bus:4222,", "server 2 of 2: must not be empty"],
    ["REDIS_URL", "redis:///0?password=s3cretpw", "must name a host"],
    // For http(s) the parser skips what stands between the // and the host and takes the host from the path.
    ["RPC_URL", "https:///s3cretpw", "RPC_URL: must be a well-formed URL with a host: http(s)://host[:port][/path]"],
    ["RPC_URL", "http:///rpc.internal/v2/s3cretpw", "RPC_URL: must be a well-formed URL with a host: http(s)://host[:port][/path]"],
    ["RPC_URL", "http://\\rpc.internal/s3cretpw", "RPC_URL: must be a well-formed URL with a host: http(s)://host[:port][/path]"],
    ["RPC_URL", "https://\trpc.internal/s3cretpw", "RPC_URL: must be a well-formed URL with a host: http(s)://host[:port][/path]"],
    // Other schemes read an empty host there, as written.
    ["NATS_URL", "nats:///s3cretpw", "NATS_URL: must name a host"],
    ["SMTP_URL", "smtp:///s3cretpw", "SMTP_URL: must name a host"],
  ])("refuses %s=%s naming the variable and the rule, not the value", (name, value, rule) => {
    const message = refused({ [name]: value });
    expect(message).toContain(`${name}: `);
    expect(message).toContain(rule);
    expect(message).not.toContain("s3cretpw");
    expect(message).not.toContain("ho st");
  });

  it.each([
    ["DATABASE_URL", "postgres:///db?host=/var/run/postgresql"],
    ["DATABASE_URL", "postgresql://%2Fvar%2Frun%2Fpostgresql/db"],
    ["DATABASE_URL", "postgresql://app:s3cret@[::1]:5432/db?sslmode=require"],
    ["NATS_URL", "nats://n1:4222,nats://n2:4222,nats://n3:4222"],
    ["NATS_URL", "tls://user:pw@n1:4222, tls://user:pw@n2:4222"],
    ["REDIS_URL", "rediss://default:s3cret@cache:6380/0"],
    ["RPC_URL", "https://user:s3cret@rpc.internal:8545/v2/key?x=1"],
    ["RPC_URL", "https://rpc.internal//v2"],
  ])("accepts %s=%s", (name, value) => {
    expect((parseEnv(schema, { ...good, [name]: value }) as Record<string, unknown>)[name]).toBe(value);
  });

  it("refuses an http(s) server of a list whose host does not follow its //, naming which one", () => {
    const list = z.object({ RPC_URLS: envVars.url(["http", "https"], { list: true }) });
    expect(() => parseEnv(list, { RPC_URLS: "https://a.internal/v2,https:///v2/s3cretpw" })).toThrow(
      new ConfigError("Invalid environment: RPC_URLS: server 2 of 2: must be a well-formed URL with a host: http(s)://host[:port][/path]"),
    );
  });
});

describe("single endpoint URLs", () => {
  const SHAPE = "must be a well-formed URL with a host: http(s)://host[:port][/path]";

  it.each([
    ["another scheme", "ws://user:s3cretpw@rpc:8545", "must be a URL starting with http:// or https://"],
    ["a scheme in capitals", "HTTPS://rpc.internal/v2", "must be a URL starting with http:// or https://"],
    ["a space in the host", "https://user:s3cretpw@rpc inside/v2", SHAPE],
    ["no host", "http://", SHAPE],
    ["a port past 65535", "http://rpc.internal:65536", SHAPE],
    ["port 0", "http://rpc.internal:0/s3cretpw", SHAPE],
  ])("refuses a URL with %s, naming the rule and not the value", (_what, value, rule) => {
    expect(hostUrlProblem(value, ["http", "https"])).toBe(rule);
  });

  it("refuses a URL whose host does not follow its // as written, which the parser would take from the path", () => {
    for (const value of ["https:///v2/s3cretpw", "http://\\rpc.internal/v2", "http://\trpc.internal/v2"]) {
      expect(new URL(value).hostname).not.toBe("");
      expect(hostUrlProblem(value, ["http", "https"])).toBe(SHAPE);
    }
    expect(hostUrlProblem("https://rpc.internal//v2", ["http", "https"])).toBeNull();
  });

  it.each([
    ["a user name and a password", "https://user:s3cretpw@api.internal/v3"],
    ["a user name only", "https://s3cretpw@api.internal/v3"],
    ["a password only", "https://:s3cretpw@api.internal/v3"],
  ])("refuses, when asked to, a URL with %s, naming where the key goes instead", (_what, value) => {
    expect(hostUrlProblem(value, ["http", "https"])).toBeNull();
    expect(hostUrlProblem(value, ["http", "https"], { keyIn: "PRICE_API_KEY" })).toBe("must not hold a user name or password: send the key in PRICE_API_KEY");
  });

  it("tells a URL that does not parse its shape before its credentials, and takes one without credentials or with an empty @", () => {
    expect(hostUrlProblem("https://user:s3cretpw@api inside/v3", ["http", "https"], { keyIn: "K" })).toBe(SHAPE);
    expect(hostUrlProblem("https://api.internal/v3?x_key=1", ["http", "https"], { keyIn: "K" })).toBeNull();
    // new URL drops an empty user part, and fetch takes what it writes.
    expect(hostUrlProblem("https://@api.internal/v3", ["http", "https"], { keyIn: "K" })).toBeNull();
  });

  it("shows the shape of schemes that are not a pair like http and https as alternatives", () => {
    expect(hostUrlProblem("redis://", ["redis", "unix"])).toBe("must be a well-formed URL with a host: redis|unix://host[:port][/path]");
  });

  it("takes an endpoint with credentials, a port, a path and a query, and refuses for envVars.hostUrl exactly what it refuses", () => {
    const url = "https://user:s3cretpw@rpc.internal:8545/v2/key?x=1";
    expect(hostUrlProblem(url, ["http", "https"])).toBeNull();
    const env = z.object({ RPC: envVars.hostUrl(["http", "https"]) });
    expect(parseEnv(env, { RPC: url }).RPC).toBe(url);
    expect(() => parseEnv(env, { RPC: "http://rpc.internal:0" })).toThrow(new ConfigError(`Invalid environment: RPC: ${SHAPE}`));
  });
});

describe("listening address and numbers", () => {
  const app = z.object({ HOST: envVars.host(), N: envVars.int(0, 1000, 250), PORT: envVars.port(3000), ...serviceEnv });
  const base = { DATABASE_URL: good.DATABASE_URL, NATS_URL: good.NATS_URL };

  it("refuses an empty HOST, which would listen on every interface", () => {
    expect(parseEnv(app, base).HOST).toBe("127.0.0.1");
    expect(() => parseEnv(app, { ...base, HOST: "" })).toThrow(new ConfigError("Invalid environment: HOST: must not be empty"));
    expect(() => parseEnv(app, { ...base, HOST: "  " })).toThrow(/HOST: must not be empty/);
  });

  it("takes an empty numeric variable as unset, so it gets its default rather than 0", () => {
    const env = parseEnv(app, { ...base, N: "", PORT: "", STARTUP_TIMEOUT_MS: "" });
    expect([env.N, env.PORT, env.STARTUP_TIMEOUT_MS]).toEqual([250, 3000, 60_000]);
    expect(parseEnv(app, { ...base, N: "0" }).N).toBe(0);
    expect(() => parseEnv(app, { ...base, N: "abc" })).toThrow(/N: /);
  });

  it.each([
    ["abc", "must be a whole number"],
    ["2.5", "must be a whole number"],
    ["-1", "must be at least 0"],
    ["1001", "must be at most 1000"],
    // Past 2^53 the problem is the size, not the form.
    ["1e20", "must be at most 1000"],
    ["Infinity", "must be at most 1000"],
    ["-Infinity", "must be at least 0"],
  ])("refuses N=%s with one message saying the rule: %s", (value, rule) => {
    expect(() => parseEnv(app, { ...base, N: value })).toThrow(new ConfigError(`Invalid environment: N: ${rule}`));
  });

  it("takes an empty chain id as unset and refuses one that is not a whole number from 1", () => {
    const chain = z.object({ CHAIN_ID: envVars.chainId() });
    expect(parseEnv(chain, { CHAIN_ID: "" }).CHAIN_ID).toBeUndefined();
    expect(parseEnv(chain, {}).CHAIN_ID).toBeUndefined();
    expect(parseEnv(chain, { CHAIN_ID: "8453" }).CHAIN_ID).toBe(8453);
    for (const bad of ["0", "1.5", "base"])
      expect(() => parseEnv(chain, { CHAIN_ID: bad })).toThrow(new ConfigError("Invalid environment: CHAIN_ID: must be a chain id"));
  });

  it("takes STREAM_REPLICAS from 1 to 5, empty as unset, and says its rule in words", () => {
    const env = { DATABASE_URL: good.DATABASE_URL, NATS_URL: good.NATS_URL, REDIS_URL: good.REDIS_URL };
    expect(parseEnv(schema, { ...env, STREAM_REPLICAS: "" }).STREAM_REPLICAS).toBeUndefined();
    expect(parseEnv(schema, { ...env, STREAM_REPLICAS: "3" }).STREAM_REPLICAS).toBe(3);
    expect(() => parseEnv(schema, { ...env, STREAM_REPLICAS: "6" })).toThrow(new ConfigError("Invalid environment: STREAM_REPLICAS: must be at most 5"));
  });

  it.each([
    [{ PORT: "70000" }, "PORT: must be at most 65535"],
    [{ PORT: "1.5" }, "PORT: must be a whole number"],
    [{ PORT: "0" }, "PORT: must be at least 1"],
  ])("says a bad port's rule in words: %j", (env, message) => {
    expect(() => parseEnv(app, { ...base, ...env })).toThrow(new ConfigError(`Invalid environment: ${message}`));
  });
});

describe("cross-variable checks", () => {
  const crossed = z.object({ A: envVars.int(1, 100, 10), B: envVars.int(1, 100, 5), C: envVars.int(1, 100, 1) }).superRefine(
    (env, ctx) => {
      if (env.A < env.B) ctx.addIssue({ code: "custom", path: ["A"], message: "must be at least B" });
    },
    whenParsed("A", "B"),
  );

  it("still runs when another variable is malformed, and is skipped when one it reads is", () => {
    expect(() => parseEnv(crossed, { A: "2", B: "3", C: "abc" })).toThrow(/C: .*; A: must be at least B/);
    expect(() => parseEnv(crossed, { A: "2", B: "abc" })).toThrow(new ConfigError(`Invalid environment: B: must be a whole number`));
  });
});
