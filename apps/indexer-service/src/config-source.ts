// Loads the indexer config from a file or from INDEXER_CONFIG's base64 text, as a checked result.
import { readFile } from "node:fs/promises";
import { type AdapterRegistry, type ConfigResult, parseConfigBase64, parseConfigText } from "@pointwise/indexer-engine";

/** Where the config comes from: a file path or INDEXER_CONFIG's base64 text. */
export type ConfigSource = { file: string } | { base64: string };

/** Reads and validates the config from its source; a missing file is a config issue, not a crash. */
export async function loadConfig(source: ConfigSource, registry: AdapterRegistry): Promise<ConfigResult> {
  if ("base64" in source) return parseConfigBase64(source.base64, registry);
  let text: string;
  try {
    text = await readFile(source.file, "utf8");
  } catch (err) {
    return {
      ok: false,
      issues: [{ path: "", message: `config file ${source.file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` }],
    };
  }
  return parseConfigText(text, registry);
}
