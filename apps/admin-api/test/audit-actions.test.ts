// The audit action names are written in three places (the server, the OpenAPI document, the dashboard's filter): they must be the same list.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { AUDIT_ACTIONS } from "../src/audit";

const root = path.join(__dirname, "..", "..", "..");

describe("audit action names", () => {
  it("are the same in the server, docs/api/admin.openapi.yaml and the dashboard's action filter", () => {
    const doc = parse(readFileSync(path.join(root, "docs", "api", "admin.openapi.yaml"), "utf8")) as {
      components: { parameters: { AuditAction: { schema: { enum: string[] } } } };
    };
    expect(doc.components.parameters.AuditAction.schema.enum).toEqual([...AUDIT_ACTIONS]);
    // The dashboard bundles no server code, so its list is read from its source.
    const page = readFileSync(path.join(root, "apps", "admin-api", "web", "src", "pages", "AuditPanel.tsx"), "utf8");
    const list = /const ACTIONS = \[([^\]]*)\]/.exec(page)?.[1] ?? "";
    expect([...list.matchAll(/"([^"]+)"/g)].map((m) => m[1])).toEqual([...AUDIT_ACTIONS]);
  });
});
