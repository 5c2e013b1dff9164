// Bad words keep offensive names off public boards: the list file and the comparison, as the read API applies them.
import { readFileSync } from "node:fs";
import { ConfigError } from "@pointwise/errors";

/** Reads a bad-word list: one word per line, blank lines and `#` comments ignored, lower-cased. */
export function loadBadWords(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(`BAD_WORDS_FILE: cannot read ${file}`, { cause: err });
  }
  const words = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((w) => w.normalize("NFKC").toLowerCase());
  if (words.length === 0) throw new ConfigError(`BAD_WORDS_FILE: ${file} lists no words`);
  return [...new Set(words)];
}

// The read API's comparison form (apps/read-api/src/privacy.ts matchForm): NFKC, no format characters, lower case.
const matchForm = (text: string) =>
  text
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .toLowerCase();

/** True when `name` contains any of the words as a case-insensitive substring, the rule the leaderboard hides names by. */
export function containsBadWord(name: string, words: readonly string[]): boolean {
  const form = matchForm(name);
  return words.some((w) => {
    const word = matchForm(w).trim();
    return word.length > 0 && form.includes(word);
  });
}
