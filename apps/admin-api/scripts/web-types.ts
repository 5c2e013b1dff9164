// Generates the dashboard's wire types from docs/api/admin.openapi.yaml (openapi-typescript);
// `npm run generate:web-types -w @pointwise/admin-api` rewrites web/src/generated/admin-api.ts; with
// `--stdout` it prints the text instead (the test compares it, as jest cannot load openapi-typescript's ES modules).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";

/** The OpenAPI document the types come from. */
export const OPENAPI_FILE = path.join(__dirname, "..", "..", "..", "docs", "api", "admin.openapi.yaml");

/** The generated file the dashboard imports (committed, so the dashboard builds without this step). */
export const WEB_TYPES_FILE = path.join(__dirname, "..", "web", "src", "generated", "admin-api.ts");

const HEADER = "// The admin API's paths and schemas as TypeScript types, generated from docs/api/admin.openapi.yaml by scripts/web-types.ts: do not edit.\n\n";

/** The text of the generated file for the OpenAPI document as it is now. */
export async function generateWebTypes(): Promise<string> {
  // A bare `type: object` (a rule document, a lineage) is free-form: unknown values, not `never`.
  const ast = await openapiTS(readFileSync(OPENAPI_FILE, "utf8"), { emptyObjectsUnknown: true, silent: true });
  return HEADER + astToString(ast);
}

if (require.main === module) {
  generateWebTypes().then((text) => {
    if (process.argv.includes("--stdout")) {
      process.stdout.write(text);
      return;
    }
    writeFileSync(WEB_TYPES_FILE, text);
    process.stdout.write(`wrote ${path.relative(process.cwd(), WEB_TYPES_FILE)}\n`);
  });
}
