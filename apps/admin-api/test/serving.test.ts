// admin-api serving the built dashboard (strict CSP, immutable assets), and oversized or unknown requests.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Harness, type Operator, startHarness } from "./harness";

let h: Harness;
let op: Operator;
const web = mkdtempSync(path.join(os.tmpdir(), "pw-web-"));

beforeAll(async () => {
  writeFileSync(path.join(web, "index.html"), '<!doctype html><div id="root"></div>');
  mkdirSync(path.join(web, "assets"));
  writeFileSync(path.join(web, "assets", "app-1234.js"), "console.log('dashboard')");
  h = await startHarness({ WEB_DIST_DIR: web });
  op = await h.newProject();
});
afterAll(async () => {
  await h?.close();
  rmSync(web, { recursive: true, force: true });
});

describe("serving the dashboard", () => {
  it("serves the built dashboard at / with a strict content security policy", async () => {
    const res = await h.call("GET", "/");
    expect(res.status).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("serves hashed assets as immutable and answers a missing one with 404", async () => {
    const asset = await h.call("GET", "/assets/app-1234.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect((await h.call("GET", "/assets/missing.js")).status).toBe(404);
  });
});

describe("request bodies", () => {
  it("refuses a JSON body over 1 MB with payload-too-large", async () => {
    const res = await op.call("POST", "/api/campaigns", { name: "x".repeat(1_100_000), currencies: { xp: "XP" }, primary_currency: "xp" });
    expect(res).toMatchObject({ status: 400, body: { error: { code: "payload-too-large" } } });
  });

  it("answers an unknown endpoint with 404 not-found", async () => {
    expect(await op.call("GET", "/api/nothing-here")).toMatchObject({ status: 404, body: { error: { code: "not-found" } } });
  });
});
