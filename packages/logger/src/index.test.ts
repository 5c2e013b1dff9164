// createLogger: one JSON object per line with service, level and msg, and credentials redacted.
import { Writable } from "node:stream";
import { createLogger } from "./index";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  return { lines, stream };
}

describe("createLogger", () => {
  it("writes one JSON object per line with service, level and msg", () => {
    const { lines, stream } = capture();
    createLogger({ service: "ingest-api", destination: stream }).info({ campaign_id: "ab12-cd34" }, "accepted");
    expect(lines[0]).toMatchObject({ service: "ingest-api", level: "info", campaign_id: "ab12-cd34", msg: "accepted" });
  });

  it("redacts credentials at the top level and one level down", () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: "t", destination: stream });
    log.info({ apiKey: "pw_live_secret", req: { headers: { authorization: "Bearer x" } }, cfg: { rpcUrl: "https://rpc/key" } }, "x");
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain("pw_live_secret");
    expect(text).not.toContain("Bearer x");
    expect(text).not.toContain("rpc/key");
    expect(text).toContain("[redacted]");
  });
});

describe("logged errors", () => {
  it("never prints an error's input, nor the credentials of URLs in its message or stack", () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: "t", destination: stream });
    // What Node's URL parser throws for REDIS_URL=redis://:s3cretpw@ho st:6379: the whole URL is its `input`.
    let parserError: unknown;
    try {
      new URL("redis://:s3cretpw@ho st:6379");
    } catch (err) {
      parserError = err;
    }
    log.fatal({ err: parserError }, "ingest-api failed to start");
    const wrapped = new Error("connect to nats://user:s3cretpw@bus:4222 failed", {
      cause: Object.assign(new Error("GET https://rpc/x?apikey=s3cretpw failed"), { input: "https://:s3cretpw@rpc/" }),
    });
    log.error({ err: wrapped }, "failed");
    log.error(wrapped, "failed as the first argument");
    const text = lines.map((l) => JSON.stringify(l)).join("\n");
    expect(text).not.toContain("s3cretpw");
    expect(lines[0]).toMatchObject({ level: "fatal", err: { type: "TypeError", message: "Invalid URL", code: "ERR_INVALID_URL", input: "[redacted]" } });
    expect(lines[1]).toMatchObject({ err: { message: "connect to nats://***@bus:4222 failed: GET https://rpc/x?apikey=*** failed" } });
  });
});
