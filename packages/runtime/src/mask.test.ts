// maskUrl and secretsOf on server lists, and rpcFailure on errors that carry a URL outside a short message.
import { maskUrl, rpcFailure, secretsOf } from "./mask";

describe("maskUrl on a comma-separated server list", () => {
  it.each([
    ["nats://127.0.0.1,nats://user:s3cretpw@127.0.0.1:1", "nats://127.0.0.1,nats://user:***@127.0.0.1:1"],
    ["nats://s3cretpw@n1:4222,nats://n2:4222, tls://u:s3cretpw@n3:4222", "nats://***@n1:4222,nats://n2:4222,tls://u:***@n3:4222"],
    ["nats://n1:4222,nats://user:s3cretpw@ho st:4222", "nats://n1:4222,nats://***"],
    // A PostgreSQL multi-host URL is one URL, not a list.
    ["postgres://app:s3cretpw@h1,h2/db", "postgres://app:***@h1,h2/db"],
  ])("%s -> %s", (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it("finds the secrets of every server of a list", () => {
    expect(secretsOf("nats://n1:4222,nats://user:s3cretpw@n2:4222,nats://t0ken@n3:4222").sort()).toEqual(["s3cretpw", "t0ken"]);
  });
});

describe("rpcFailure on errors that hold a URL", () => {
  it("drops the input of Node's Invalid URL error, which is the whole URL with its key", () => {
    let thrown: unknown;
    try {
      new URL("https://user:s3cretpw@rpc example/v2/KEY123");
    } catch (err) {
      thrown = err;
    }
    const kept = rpcFailure(thrown) as Error & { code: string };
    expect([kept.name, kept.message, kept.code]).toEqual(["TypeError", "Invalid URL", "ERR_INVALID_URL"]);
    expect(JSON.stringify({ ...kept, message: kept.message, stack: kept.stack })).not.toMatch(/s3cretpw|KEY123/);
  });

  it("reduces URLs in a message without a short message to their scheme", () => {
    const kept = rpcFailure(new Error("request to https://rpc.example/v2/KEY123 failed, reason: ECONNREFUSED")) as Error;
    expect(kept.message).toBe("request to https://*** failed, reason: ECONNREFUSED");
  });
});
