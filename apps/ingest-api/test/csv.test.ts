// The CSV endpoint on real services: import modes, tolerated file quirks, chunked uploads and progress.
import http from "node:http";
import { IMPORT_ID_HEADER } from "../src/routes/csv";
import { type Answer, type Harness, startHarness } from "./harness";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const CSV = "/api/rest/earn-events/csv";
const HEADER = "account_id,identity_type,amount,reg_event_id";

function upload(text: string, query = "", headers: Record<string, string> = {}): Promise<Answer> {
  return h.request("POST", `${CSV}${query}`, text, { authorization: `Bearer ${h.main.key}`, "content-type": "text/csv", ...headers });
}

/** Uploads a CSV file written piece by piece by `send` on one request, so it reaches the import in several chunks. */
function streamUpload(contentType: string, send: (req: http.ClientRequest) => void): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      `${h.url}${CSV}?mode=accept-valid`,
      { method: "POST", headers: { authorization: `Bearer ${h.main.key}`, "content-type": contentType } },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text), text }));
      },
    );
    req.on("error", reject);
    send(req);
  });
}

function file(h: Harness): { text: string; good: string[] } {
  const reg = h.main.regEventId;
  const lines = [
    HEADER,
    `0x52908400098527886e0f7030069857d2e4169ee7,EVM_ADDRESS,1.5,${reg}`, // 2 ok
    `someone@example.com,EMAIL,-2,${reg}`, // 3 negative
    `123456789012345678,DISCORD_PROVIDER_ID,3,${reg}`, // 4 ok
    `abc,PHONE,1,${reg}`, // 5 bad type
    `42,GITHUB_PROVIDER_ID,,${reg}`, // 6 empty amount
    `7,X_PROVIDER_ID,1,${h.other.regEventId}`, // 7 other campaign's event type
  ];
  return { text: `${lines.join("\n")}\n`, good: ["0x52908400098527886e0f7030069857d2e4169ee7", "123456789012345678"] };
}

const expectedInvalid = [
  { line: 3, errors: [{ message: "amount must not be negative", extensions: { code: "negative-amount" } }] },
  { line: 5, errors: [{ message: "invalid identity_type", extensions: { code: "validation-failed" } }] },
  { line: 6, errors: [{ message: "amount is required", extensions: { code: "missing-field" } }] },
  { line: 7, errors: [{ message: "reg_event_id is not a registered event type of this campaign", extensions: { code: "unknown-event-type" } }] },
];

describe("POST /api/rest/earn-events/csv", () => {
  it("all-or-nothing (the default) publishes nothing when a row is bad, and lists every bad row with its line and reason", async () => {
    const before = await h.count();
    const answer = await upload(file(h).text);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      import_id: expect.any(String),
      mode: "all-or-nothing",
      status: "rejected",
      rows_read: 6,
      rows_valid: 2,
      rows_invalid: 4,
      rows_published: 0,
      invalid_rows: expectedInvalid,
    });
    expect(answer.headers[IMPORT_ID_HEADER.toLowerCase()]).toBe(answer.body.data.import_id);
    expect(await h.count()).toBe(before);
  });

  it("accept-valid publishes the good rows with source csv and still lists the bad ones", async () => {
    const before = await h.count();
    const { text, good } = file(h);
    const answer = await upload(text, "?mode=accept-valid");
    expect(answer.body.data).toMatchObject({
      mode: "accept-valid",
      status: "done",
      rows_read: 6,
      rows_valid: 2,
      rows_invalid: 4,
      rows_published: 2,
      invalid_rows: expectedInvalid,
    });
    expect(await h.count()).toBe(before + 2);
    const stored = (await h.messages()).slice(-2);
    expect(stored.map((m) => m.account_id)).toEqual(good);
    expect(stored.map((m) => m.source)).toEqual(["csv", "csv"]);
    expect(stored.map((m) => m.amount)).toEqual(["1.5", "3"]);
  });

  it("reads CRLF line ends, a byte-order mark, quoted values, blank lines and spaces around values", async () => {
    const before = await h.count();
    const reg = h.main.regEventId;
    const text = `\uFEFFreg_event_id,amount,identity_type,account_id\r\n${reg}, "2.50" ,EMAIL,"First.Last@Example.COM"\r\n\r\n${reg},1,SOLANA_ADDRESS, 11111111111111111111111111111111 \r\n`;
    const answer = await upload(text);
    expect(answer.body.data).toMatchObject({ status: "done", rows_read: 2, rows_valid: 2, rows_invalid: 0, rows_published: 2, invalid_rows: [] });
    const stored = (await h.messages()).slice(before);
    expect(stored.map((m) => [m.identity_type, m.amount])).toEqual([
      ["EMAIL", "2.5"],
      ["SOLANA_ADDRESS", "1"],
    ]);
    expect(stored[1]?.account_id).toBe("11111111111111111111111111111111");
  });

  it("publishes a file sent again with the same Idempotency-Key as the same events: a stopped upload is safe to send again", async () => {
    const text = `${HEADER}\n501,DISCORD_PROVIDER_ID,1,${h.main.regEventId}\n502,DISCORD_PROVIDER_ID,2,${h.main.regEventId}\n`;
    const before = await h.count();
    for (let i = 0; i < 2; i++)
      expect((await upload(text, "", { "idempotency-key": "nightly-2026-11-30" })).body.data).toMatchObject({ status: "done", rows_published: 2 });
    expect(await h.count()).toBe(before + 2);
  });

  it("accepts a header-only file as an import of nothing", async () => {
    const answer = await upload(`${HEADER}\n`);
    expect(answer.body.data).toMatchObject({ status: "done", rows_read: 0, rows_published: 0, invalid_rows: [] });
  });

  it("streams a chunked upload and reports progress at GET /api/rest/csv-imports/:id, for its own campaign only", async () => {
    const reg = h.main.regEventId;
    const answer = await streamUpload("text/csv; charset=utf-8", (req) => {
      req.write(`${HEADER}\n`);
      for (let i = 1; i <= 3000; i++) req.write(`${i},GITHUB_PROVIDER_ID,${i},${reg}\n`);
      req.end();
    });
    expect(answer.body.data).toMatchObject({ status: "done", rows_read: 3000, rows_valid: 3000, rows_published: 3000 });
    const id = answer.body.data.import_id;
    const progress = await h.request("GET", `/api/rest/csv-imports/${id}`, undefined, { authorization: `Bearer ${h.main.key}` });
    expect(progress.body.data).toMatchObject({
      import_id: id,
      campaign_id: h.main.campaignId,
      mode: "accept-valid",
      origin: "ingest-api",
      status: "done",
      rows_read: 3000,
      rows_valid: 3000,
      rows_invalid: 0,
      rows_published: 3000,
      sample_errors: [],
      error: null,
    });
    expect(progress.body.data.finished_at).not.toBeNull();
    const foreign = await h.request("GET", `/api/rest/csv-imports/${id}`, undefined, { authorization: `Bearer ${h.other.key}` });
    expect(foreign.body.errors[0].extensions.code).toBe("csv-import-not-found");
  });

  it("fails a file with a byte that is not UTF-8 with invalid-utf8 naming the offset of that byte, however the upload is cut", async () => {
    const reg = h.main.regEventId;
    // A header, one valid row, then a row (padded with spaces, which are trimmed) whose last byte before the line end
    // is ff at byte 232 (0-based): the 232 bytes before it are valid.
    const start = `${HEADER}\n0x52908400098527886e0f7030069857d2e4169ee7,EVM_ADDRESS,1.5,${reg}\n`;
    const row = `7,DISCORD_PROVIDER_ID,1,${reg}`;
    const before = Buffer.from(`${start}${" ".repeat(232 - Buffer.byteLength(start) - row.length)}${row}`);
    expect(before.length).toBe(232);
    const bytes = Buffer.concat([before, Buffer.from([0xff]), Buffer.from("\n")]);
    const refused = {
      data: null,
      errors: [{ message: "CSV file must be UTF-8 text: the bytes after byte 232 are not valid UTF-8", extensions: { code: "invalid-utf8" } }],
    };
    const count = await h.count();
    const whole = await h.request("POST", `${CSV}?mode=accept-valid`, bytes, { authorization: `Bearer ${h.main.key}`, "content-type": "text/csv" });
    expect(whole.body).toEqual(refused);
    // The same bytes in three writes with pauses between, so the file reaches the import in several chunks (utf8.test.ts
    // cuts chunks exactly; here the socket decides).
    const chunked = await streamUpload("text/csv", (req) => {
      req.write(bytes.subarray(0, 100));
      setTimeout(() => {
        req.write(bytes.subarray(100, 200));
        setTimeout(() => req.end(bytes.subarray(200)), 50);
      }, 50);
    });
    expect(chunked.body).toEqual(refused);
    expect(await h.count()).toBe(count);
  });

  it("records a failed import on its job row", async () => {
    const answer = await upload("account_id;identity_type;amount;reg_event_id\n");
    expect(answer.body.errors[0].extensions.code).toBe("csv-invalid-header");
    const id = answer.headers[IMPORT_ID_HEADER.toLowerCase()];
    const progress = await h.request("GET", `/api/rest/csv-imports/${id}`, undefined, { authorization: `Bearer ${h.main.key}` });
    expect(progress.body.data).toMatchObject({ status: "failed", error: expect.stringMatching(/^csv-invalid-header: /) });
  });
});
