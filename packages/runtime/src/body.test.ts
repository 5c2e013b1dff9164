// JSON bodies: what express.json refuses is answered 400 in the service's own codes, never as body-parser's 415.
import type { Server } from "node:http";
import { gzipSync } from "node:zlib";
import { createLogger } from "@pointwise/logger";
import { createHttpApp, finishHttpApp, jsonBody, jsonBodyErrors, listen } from "./index";

let server: Server;
let base: string;

beforeAll(async () => {
  const logger = createLogger({ service: "t", level: "silent" });
  const app = createHttpApp({ logger, readiness: [] });
  app.use(jsonBody({ limit: 64 }));
  app.post("/echo", (req, res) => res.json(req.body));
  app.use(jsonBodyErrors());
  server = await listen(finishHttpApp(app, logger), 0, "127.0.0.1");
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function post(body: string | Buffer, headers: Record<string, string>) {
  const res = await fetch(`${base}/echo`, { method: "POST", body, headers });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

describe("jsonBodyErrors", () => {
  it("passes a UTF-8 JSON body, plain or gzip", async () => {
    expect(await post('{"a":1}', { "content-type": "application/json" })).toEqual({ status: 200, body: { a: 1 } });
    expect(await post(gzipSync('{"a":2}'), { "content-type": "application/json", "content-encoding": "gzip" })).toEqual({ status: 200, body: { a: 2 } });
  });

  it.each<[string, string, string, string | Buffer, Record<string, string>]>([
    ["broken JSON", "malformed-json", "body must be valid JSON", "{nope", {}],
    ["a body over the limit", "payload-too-large", "body is larger than 64 bytes", JSON.stringify({ a: "x".repeat(100) }), {}],
    [
      "a charset other than UTF-8",
      "unsupported-media-type",
      "Content-Type charset latin1 is not supported; send UTF-8",
      '{"a":1}',
      { "content-type": "application/json; charset=latin1" },
    ],
    [
      "a Content-Encoding it cannot inflate",
      "unsupported-media-type",
      "Content-Encoding compress is not supported; send gzip, deflate, br or none",
      '{"a":1}',
      { "content-encoding": "compress" },
    ],
    [
      "a gzip stream that is corrupt",
      "invalid-body",
      "body could not be read to its end (a corrupt compressed stream, or a length that does not match)",
      Buffer.concat([gzipSync('{"a":1}').subarray(0, 10), Buffer.from("not deflate data")]),
      { "content-encoding": "gzip" },
    ],
  ])("answers %s with 400 %s", async (_what, code, message, body, headers) => {
    expect(await post(body, { "content-type": "application/json", ...headers })).toEqual({ status: 400, body: { error: { code, message } } });
  });
});
