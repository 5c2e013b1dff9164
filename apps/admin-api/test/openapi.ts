import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse } from "yaml";

/** The OpenAPI document as the repository keeps it. */
export const OPENAPI_FILE = path.join(__dirname, "..", "..", "..", "docs", "api", "admin.openapi.yaml");

// biome-ignore lint/suspicious/noExplicitAny: the document is free-form YAML.
type Doc = any;

/** Loads the document and checks responses against it. */
export function loadOpenApi() {
  const text = readFileSync(OPENAPI_FILE, "utf8");
  const doc: Doc = parse(text);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi");

  const templates = Object.keys(doc.paths as object).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  const covered = new Set<string>();

  const resolve = (node: Doc): Doc => {
    if (node && typeof node.$ref === "string") {
      return node.$ref
        .slice(2)
        .split("/")
        .reduce((n: Doc, key: string) => n[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    }
    return node;
  };

  /** Operations as "METHOD /template". */
  function operations(): string[] {
    return Object.entries(doc.paths as Record<string, Doc>).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((k) => ["get", "post", "put", "patch", "delete"].includes(k))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
  }

  /** Throws when a response does not match what the document says for its path, method and status. */
  function check(method: string, url: string, status: number, body: unknown): void {
    const pathname = new URL(url, "http://x").pathname;
    const match = templates.find((t) => t.regex.test(pathname) && doc.paths[t.template][method.toLowerCase()]);
    if (!match) throw new Error(`${method} ${pathname} is not in the OpenAPI document`);
    const operation = doc.paths[match.template][method.toLowerCase()];
    const response = resolve(operation.responses[String(status)]);
    if (!response) throw new Error(`${method} ${match.template} answered ${status}, which the document does not list`);
    const ref = operation.responses[String(status)].$ref as string | undefined;
    const pointer = ref
      ? `${ref.slice(1)}/content/application~1json/schema`
      : `/paths/${match.template.replace(/~/g, "~0").replace(/\//g, "~1")}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    if (!response.content?.["application/json"]) return;
    const validate = ajv.getSchema(`openapi#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    if (!validate(body))
      throw new Error(`${method} ${match.template} ${status} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
    covered.add(`${method.toUpperCase()} ${match.template} ${status}`);
  }

  return { doc, text, operations, check, covered };
}
