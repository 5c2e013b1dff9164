// Validates an indexer config (text, base64 or parsed) against the schema, registry and adapter params.
import { ConfigError } from "@pointwise/errors";
import type { z } from "zod";
import type { AdapterRegistry } from "../registry";
import { type IndexerConfig, indexerConfigSchema } from "./schema";

/** One problem in a config: where it is and the full message (which names the path and the rule). */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** The result of validating a config: the config with defaults, or every problem found. */
export type ConfigResult = { ok: true; config: IndexerConfig } | { ok: false; issues: ConfigIssue[] };

/** Renders a zod path as `sinkConfig.sinks[0].path`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out === "" ? String(key) : `${out}.${String(key)}`), "");
}

function issueFrom(issue: z.core.$ZodIssue, prefix: readonly PropertyKey[] = []): ConfigIssue {
  const path = formatPath([...prefix, ...issue.path]);
  const where = path === "" ? "config" : path;
  if (issue.code === "unrecognized_keys") return { path, message: `${where} has unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}` };
  // Sentence-style messages (an adapter's own rule) stand alone; rule fragments are prefixed with the path they belong to.
  const sentence = /^[A-Z]/.test(issue.message);
  return { path, message: sentence ? issue.message : `${where} ${issue.message}` };
}

/**
 * Validates a parsed config against the schema, the adapter registry and the adapter's own parameter schema.
 * Expected failures are returned as values; nothing here throws.
 */
export function validateConfig(input: unknown, registry: AdapterRegistry): ConfigResult {
  const parsed = indexerConfigSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((issue) => issueFrom(issue)) };
  const config = parsed.data;
  const adapter = registry.get(config.adapterConfig.adapterId);
  if (adapter === undefined) {
    const message = `Unknown adapter: ${config.adapterConfig.adapterId}. Available adapters: ${registry.ids().join(", ")}`;
    return { ok: false, issues: [{ path: "adapterConfig.adapterId", message }] };
  }
  const params = adapter.paramsSchema.safeParse(config.adapterConfig.params);
  if (!params.success) return { ok: false, issues: params.error.issues.map((issue) => issueFrom(issue, ["adapterConfig", "params"])) };
  return { ok: true, config: { ...config, adapterConfig: { ...config.adapterConfig, params: params.data as Record<string, unknown> } } };
}

/** Parses and validates the text of a `.pointwise.json` file; a leading byte order mark (as some editors save UTF-8) is skipped. */
export function parseConfigText(text: string, registry: AdapterRegistry): ConfigResult {
  let input: unknown;
  try {
    input = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (err) {
    return { ok: false, issues: [{ path: "", message: `config is not valid JSON: ${(err as Error).message}` }] };
  }
  return validateConfig(input, registry);
}

/** Decodes `INDEXER_CONFIG` (base64 of the config file) and validates it. */
export function parseConfigBase64(encoded: string, registry: AdapterRegistry): ConfigResult {
  const compact = encoded.replace(/\s/g, "");
  // At least one character, so an empty value is refused too; Node decodes the url-safe `-` and `_` as well, so they pass.
  // Padding may be left out, but a last group of one character (6 bits, no whole byte) is written by no encoder, and
  // padding, when present, completes a group of four; Node would decode either into text that is merely "not JSON".
  const data = compact.replace(/=+$/, "");
  const padded = data.length !== compact.length;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact) || data.length % 4 === 1 || (padded && compact.length % 4 !== 0))
    return { ok: false, issues: [{ path: "", message: "INDEXER_CONFIG must be base64 of the config file" }] };
  return parseConfigText(Buffer.from(compact, "base64").toString("utf8"), registry);
}

/** Returns the config or throws a ConfigError listing every issue. */
export function unwrapConfig(result: ConfigResult): IndexerConfig {
  if (result.ok) return result.config;
  throw new ConfigError(`Invalid indexer config: ${result.issues.map((i) => i.message).join("; ")}`, { details: { issues: result.issues } });
}
