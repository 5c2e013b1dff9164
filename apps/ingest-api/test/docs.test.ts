/**
 * docs/api/ingest.md and docs/api/ingest.openapi.yaml describe exactly what the service does: the code
 * list, the defaults, the headers, and real answers of the running app validate against the OpenAPI
 * response schemas (which forbid extra fields).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { INGEST_ERROR_CODE_LIST } from "@pointwise/ingest-core";
import { loadOpenApi, repoRoot } from "@pointwise/testkit";
import { envSchema } from "../src/env";
import { type Harness, startHarness, validBody } from "./harness";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const markdown = readFileSync(path.join(repoRoot, "docs", "api", "ingest.md"), "utf8");
const documented = loadOpenApi("ingest");
const openapi = documented.doc;

describe("the ingest documentation", () => {
  it("is OpenAPI 3.1 with the four ingest endpoints", () => {
    expect(openapi.openapi).toBe("3.1.0");
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(["/api/rest/earn-event", "/api/rest/earn-events", "/api/rest/earn-events/csv", "/api/rest/csv-imports/{import_id}"]),
    );
  });

  it("lists exactly the codes the service answers with, in both files", () => {
    expect(openapi.components.schemas.ErrorCode.enum).toEqual(INGEST_ERROR_CODE_LIST);
    const section = markdown.slice(markdown.indexOf("## Error codes"), markdown.indexOf("\n## ", markdown.indexOf("## Error codes") + 1));
    const tableCodes = [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect(tableCodes).toEqual(INGEST_ERROR_CODE_LIST);
  });

  it("states the defaults the service actually has", () => {
    const defaults = envSchema.parse({ DATABASE_URL: "postgres://x", REDIS_URL: "redis://x", NATS_URL: "nats://x" }) as Record<string, unknown>;
    const rows = [...markdown.matchAll(/^\| `([A-Z_]+)` \| `([^`]+)` \|/gm)];
    expect(rows.length).toBeGreaterThan(10);
    for (const [, name, value] of rows) expect([name, String(defaults[name as string])]).toEqual([name, value]);
    const names = Object.keys(envSchema.shape);
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) expect(markdown).toContain(`\`${name}\``);
  });

  it("names every header the service reads or sends", () => {
    for (const header of ["Idempotency-Key", "Idempotent-Replayed", "Retry-After", "X-Pointwise-Source", "X-Pointwise-Import-Id", "Content-Encoding"]) {
      expect(markdown).toContain(header);
      expect(JSON.stringify(openapi)).toContain(header);
    }
  });
});

describe("real answers validate against the OpenAPI response schemas", () => {
  let h: Harness;
  const check = (schema: string, body: unknown) => documented.checkSchema(schema, body);

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("single event: success and failure", async () => {
    check("EarnEventAccepted", (await h.post("/api/rest/earn-event", validBody(h))).body);
    check("Failure", (await h.post("/api/rest/earn-event", validBody(h, { identity_type: "PHONE", amount: -1 }))).body);
    check("Failure", (await h.post("/api/rest/earn-event", validBody(h), { authorization: "Bearer x" })).body);
  });

  it("batch: mixed results and a whole failure", async () => {
    check("BatchAnswer", (await h.post("/api/rest/earn-events", { events: [validBody(h), validBody(h, { amount: "x" })] })).body);
    check("Failure", (await h.post("/api/rest/earn-events", { events: {} })).body);
  });

  it("CSV: an import answer and its progress", async () => {
    const text = `account_id,identity_type,amount,reg_event_id\n1,GITHUB_PROVIDER_ID,1,${h.main.regEventId}\n1,2\n`;
    const answer = await h.request("POST", "/api/rest/earn-events/csv?mode=accept-valid", text, {
      authorization: `Bearer ${h.main.key}`,
      "content-type": "text/csv",
    });
    check("CsvImportAnswer", answer.body);
    const progress = await h.request("GET", `/api/rest/csv-imports/${answer.body.data.import_id}`, undefined, { authorization: `Bearer ${h.main.key}` });
    check("CsvImportProgressAnswer", progress.body);
  });

  it("request bodies of the examples are what the endpoint accepts", async () => {
    const event = { ...openapi.components.schemas.EarnEvent.properties };
    expect(Object.keys(event)).toEqual(["account_id", "identity_type", "amount", "reg_event_id", "occurred_at", "idempotency_key"]);
    check("EarnEvent", validBody(h));
    check("EarnEvent", validBody(h, { occurred_at: "2026-11-20T10:00:00.123Z", idempotency_key: "row-1" }));
    check("EarnEvent", validBody(h, { occurred_at: "2026-11-20t10:00:00.123z" }));
    expect(() => check("EarnEvent", validBody(h, { occurred_at: "2026-11-20T10:00:00+01:00" }))).toThrow();
    expect(() => check("EarnEvent", { ...validBody(h), extra: 1 })).toThrow();
  });
});
