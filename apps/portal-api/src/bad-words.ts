// Bad words keep offensive names off public boards: the list file and the comparison, as the read API applies them.
import { readFileSync } from "node:fs";
import { ConfigError } from "@pointwise/errors";
import { parseBadWords } from "@pointwise/schemas";

/** Reads a bad-word list: one word per line, blank lines and `#` comments ignored, lower-cased. */
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
