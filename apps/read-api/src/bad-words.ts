// Loads the bad-word list that keeps offensive user-set names off public boards.
import { readFileSync } from "node:fs";
import { ConfigError } from "@pointwise/errors";

/** Parses a bad-word list: one word per line, blank lines and `#` comments ignored, lower-cased, deduplicated. */
export function parseBadWords(text: string): string[] {
  const words = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((w) => w.normalize("NFKC").toLowerCase());
  return [...new Set(words)];
}

/** Reads the default bad-word list that ships with the service (or the file BAD_WORDS_FILE names). */
export function loadBadWords(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(`BAD_WORDS_FILE: cannot read ${file}`, { cause: err });
  }
  const words = parseBadWords(text);
  if (words.length === 0) throw new ConfigError(`BAD_WORDS_FILE: ${file} lists no words`);
  return words;
}
