// How a display name is compared with bad words and identities: one comparison form, and the shapes that reveal who someone is.
import { ValidationError } from "@pointwise/errors";

/**
 * The form names and words are compared in: NFKC (full-width and mathematical letters become plain
 * ones), invisible format characters removed (zero-width, soft hyphen), lower case, combining marks
 * removed. Marks go after lower-casing, since lower-casing makes some (`İ` becomes `i` and U+0307);
 * then NFC again, so scripts that NFD takes apart without marks (Hangul) compare as written.
 */
export function matchForm(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .normalize("NFC");
}

/**
 * A bad-word list as text (one word per line, blank lines and `#` comments ignored) in the form of `matchForm`,
 * deduplicated: what the services load from BAD_WORDS_FILE.
 */
export function parseBadWords(text: string): string[] {
  const words = text
    .split(/\r?\n/)
    .map((line) => matchForm(line).trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  return [...new Set(words)];
}

// Each list in the form of `matchForm`, kept while the list is: a board checks every name against the same
// lists, which are folded once instead of once per name.
const foldedLists = new WeakMap<readonly string[], string[]>();

/** True when `name` contains any of `badWords` as a case-insensitive substring, both in the form of `matchForm`. */
export function containsBadWord(name: string, badWords: readonly string[]): boolean {
  let words = foldedLists.get(badWords);
  if (words === undefined) {
    words = badWords.map((w) => matchForm(w).trim()).filter((w) => w.length > 0);
    foldedLists.set(badWords, words);
  }
  const form = matchForm(name);
  return words.some((word) => form.includes(word));
}

/**
 * `matchForm` with everything but letters and digits removed: spaces, dots, dashes, underscores,
 * emoji. A reader still reads an address through them ("0x ab58 01a7 ..."), so identities are looked
 * for in this form. Letters still break a run, which keeps names like "Team 42" or "0xSam" apart from it.
 */
export function compactForm(text: string): string {
  return matchForm(text).replace(/[^\p{L}\p{N}]/gu, "");
}

// The `0x` of an EVM address: a name is compared without it, as a reader reads past it.
const EVM_PREFIX = /^0x(?=[0-9a-f]{40}$)/i;
// Spaces written around the `@` or the dots of an e-mail address ("eve.audit @ example . com").
const SPACED_EMAIL_PUNCTUATION = /\s*([@.])\s*/gu;

// Shapes that would put an identity on a public board if a user typed it as their name, tested on the
// name as written and in the form of `matchForm` (with spaces around `@` and dots closed up).
const SENSITIVE_SHAPES = [
  /[^\s@]+@[^\s@]+\.[^\s@]+/, // e-mail
  /(bc|tb)1[ac-hj-np-z02-9]{11,71}/i, // Bitcoin bech32 / bech32m
  /[1-9A-HJ-NP-Za-km-z]{26,44}/, // base58: Solana and legacy Bitcoin addresses
  /\d{12,}/, // a long number: Discord, X or GitHub provider ids
];
// Forty hex digits in a row in the form of `compactForm`: an EVM address, with or without 0x and separators.
const EVM_ADDRESS_COMPACT = /[0-9a-f]{40}/;

// A user's own account ids shorter than this (in the form of `compactForm`) are too common to refuse a name over (e.g. "42").
const MIN_OWN_ID_LENGTH = 5;

/**
 * True when `name` looks like, or contains, an e-mail, a wallet address, a provider id or one of
 * `ownIds`. An EVM address counts without its 0x and with separators between its parts, and own ids
 * are compared in the form of `compactForm` (an EVM id without its 0x), so neither spacing nor case hides them.
 */
export function revealsIdentity(name: string, ownIds: readonly string[] = []): boolean {
  const form = matchForm(name).replace(SPACED_EMAIL_PUNCTUATION, "$1");
  if (SENSITIVE_SHAPES.some((re) => re.test(name) || re.test(form))) return true;
  const compact = compactForm(name);
  if (EVM_ADDRESS_COMPACT.test(compact)) return true;
  return ownIds.some((id) => {
    const own = compactForm(id.replace(EVM_PREFIX, ""));
    return own.length >= MIN_OWN_ID_LENGTH && compact.includes(own);
  });
}

/** What a user-set display name is checked against before it is saved: what the boards check it against. */
export interface BoardNameLists {
  /** Bad-word lists (the default BAD_WORDS_FILE's and the campaign's own), each compared as `containsBadWord` does. */
  badWords: readonly (readonly string[])[];
  /** The user's own account ids, as `revealsIdentity` takes them. */
  ownIds: readonly string[];
}

/**
 * Refuses a display name that every board would hide, so no API says "saved" for a name nobody will see: throws
 * ValidationError `display-name-not-allowed` (field display_name), one message for a bad word and one for an identity.
 */
export function refuseHiddenDisplayName(name: string, lists: BoardNameLists): void {
  if (lists.badWords.some((words) => containsBadWord(name, words))) {
    throw new ValidationError("display_name contains a word this campaign does not allow on its boards", {
      code: "display-name-not-allowed",
      field: "display_name",
    });
  }
  if (revealsIdentity(name, lists.ownIds)) {
    throw new ValidationError("display_name looks like an e-mail address, a wallet address or an account id, which boards never show", {
      code: "display-name-not-allowed",
      field: "display_name",
    });
  }
}
