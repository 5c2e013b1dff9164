/**
 * Checks real answers against an OpenAPI document in docs/api: the path, method and status must be
 * listed and the JSON body must match the listed schema (the documents forbid extra fields).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import { repoRoot } from "./processes";

// biome-ignore lint/suspicious/noExplicitAny: the document is free-form YAML, walked key by key.
type Doc = any;

/** The service APIs that have an OpenAPI document (docs/api/<name>.openapi.yaml). */
export type OpenApiName = "admin" | "read" | "ingest" | "portal";

/** One loaded document and the checks made against it. */
export interface OpenApi {
  /** The parsed document. */
  doc: Doc;
  /** The document's text as the repository keeps it. */
  text: string;
  /** Where the document is. */
  file: string;
  /** Every operation as "METHOD /template". */
  operations(): string[];
  /** Throws when an answer does not match what the document says for its path (or template), method and status. */
  check(method: string, url: string, status: number, body: unknown): void;
  /** Throws when a value does not match the named schema under components/schemas. */
  checkSchema(name: string, value: unknown): void;
  /** "METHOD /template status" of every answer `check` accepted with a JSON body. */
  covered: Set<string>;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Loads docs/api/<name>.openapi.yaml and compiles its schemas. */
export function loadOpenApi(name: OpenApiName): OpenApi {
  const file = path.join(repoRoot, "docs", "api", `${name}.openapi.yaml`);
  const text = readFileSync(file, "utf8");
  const doc: Doc = parse(text);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, name);

  const templates = Object.keys(doc.paths as object).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  const covered = new Set<string>();
  const pointerPart = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
  const resolve = (node: Doc): Doc =>
    node && typeof node.$ref === "string"
      ? node.$ref
          .slice(2)
          .split("/")
          .reduce((n: Doc, key: string) => n[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc)
      : node;

  function validateAt(pointer: string, value: unknown, what: string): void {
    const validate = ajv.getSchema(`${name}#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    if (!validate(value)) throw new Error(`${what} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
  }

  return {
    doc,
    text,
    file,
    covered,
    operations() {
      return Object.entries(doc.paths as Record<string, Doc>).flatMap(([p, item]) =>
        Object.keys(item)
          .filter((k) => METHODS.includes(k))
          .map((m) => `${m.toUpperCase()} ${p}`),
      );
    },
    check(method, url, status, body) {
      const lower = method.toLowerCase();
      // A template itself may be checked (a documented example): URL parsing escapes its braces.
      const pathname = new URL(url, "http://x").pathname.replace(/%7B/gi, "{").replace(/%7D/gi, "}");
      const match = templates.find((t) => t.regex.test(pathname) && doc.paths[t.template][lower]);
      if (!match) throw new Error(`${method} ${pathname} is not in the OpenAPI document`);
      const listed = doc.paths[match.template][lower].responses[String(status)];
      const response = resolve(listed);
      if (!response) throw new Error(`${method} ${match.template} answered ${status}, which the document does not list`);
      if (!response.content?.["application/json"]) return;
      const pointer = listed.$ref
        ? `${(listed.$ref as string).slice(1)}/content/application~1json/schema`
        : `/paths/${pointerPart(match.template)}/${lower}/responses/${status}/content/application~1json/schema`;
      validateAt(pointer, body, `${method} ${match.template} ${status}`);
      covered.add(`${method.toUpperCase()} ${match.template} ${status}`);
    },
    checkSchema(schema, value) {
      if (!doc.components?.schemas?.[schema]) throw new Error(`no schema ${schema}`);
      validateAt(`/components/schemas/${pointerPart(schema)}`, value, schema);
    },
  };
}
