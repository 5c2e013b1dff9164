// Loads the bad-word list that keeps offensive user-set names off public boards.
import { readFileSync } from "node:fs";
import { ConfigError } from "@pointwise/errors";
import { parseBadWords } from "@pointwise/schemas";

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
