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
