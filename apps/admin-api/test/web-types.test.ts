// The dashboard's wire types are the ones generated from the OpenAPI document, so they cannot drift from it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.join(__dirname, "..");
const TYPES_FILE = path.join(root, "web", "src", "generated", "admin-api.ts");

describe("dashboard types", () => {
  it("equal what openapi-typescript generates from docs/api/admin.openapi.yaml now (else: npm run generate:web-types -w @pointwise/admin-api)", () => {
    // A child process: openapi-typescript's dependencies are ES modules, which jest's CommonJS runtime cannot load.
    const generated = execFileSync(process.execPath, ["--import", "tsx", path.join("scripts", "web-types.ts"), "--stdout"], { cwd: root, encoding: "utf8" });
    expect(readFileSync(TYPES_FILE, "utf8")).toBe(generated);
  });
});
