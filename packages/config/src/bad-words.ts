// The bad-word list file (BAD_WORDS_FILE) the read API, portal-api and admin-api judge user-set names by.
import { readFileSync } from "node:fs";
import { ConfigError } from "@pointwise/errors";
import { parseBadWords } from "@pointwise/schemas";

/**
 * Reads a bad-word list: one word per line, blank lines and `#` comments ignored, in the form names are compared in.
 * A file that cannot be read or lists no words stops the start with a ConfigError naming BAD_WORDS_FILE.
 */
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
