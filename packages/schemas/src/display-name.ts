// The rule for public display names: no invisible, reordering or line-breaking characters, no stacks of combining marks.
import { z } from "zod";

/** Longest display name, in UTF-16 code units (as stored and as the admin API counts it). */
export const DISPLAY_NAME_MAX_LENGTH = 64;

/** Most combining marks allowed in a row (after NFC), enough for e.g. Vietnamese written decomposed. */
export const MAX_COMBINING_MARKS_IN_A_ROW = 2;

// Each class has its own message, so whoever typed the name learns what to remove. Order matters:
// the named classes are all control (Cc) or format (Cf) characters too, and say more than those.
const RULES: readonly { pattern: RegExp; message: string }[] = [
  {
    // Bidirectional embeddings, overrides and isolates, and the implicit marks (LRM, RLM, ALM): they reorder what follows on a board.
    pattern: /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u,
    message: "must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C)",
  },
  {
    pattern: /[\u200B-\u200D\u2060\uFEFF]/u,
    message: "must not contain zero-width characters (U+200B-U+200D, U+2060, U+FEFF)",
  },
  { pattern: /[\u2028\u2029]/u, message: "must not contain line or paragraph separators (U+2028, U+2029)" },
  { pattern: /\p{Cc}/u, message: "must not contain control characters" },
  // The rest of Unicode's format characters (soft hyphen, invisible operators, tags, ...) are invisible as well.
  { pattern: /\p{Cf}/u, message: "must not contain invisible format characters" },
  // Lone surrogates cannot be shown at all.
  { pattern: /\p{Cs}/u, message: "must not contain unpaired surrogates" },
];

const COMBINING_RUN = new RegExp(`\\p{M}{${MAX_COMBINING_MARKS_IN_A_ROW + 1}}`, "u");

/**
 * What is wrong with a display name (`must not contain ...`), or null when it may be shown. Combining
 * marks are counted after NFC, so a letter written decomposed is not held against anyone.
 */
export function displayNameProblem(name: string): string | null {
  for (const rule of RULES) if (rule.pattern.test(name)) return rule.message;
  if (COMBINING_RUN.test(name.normalize("NFC"))) return `must not contain more than ${MAX_COMBINING_MARKS_IN_A_ROW} combining marks in a row`;
  return null;
}

/** A display name as set by an operator or a participant: trimmed, 1 to 64 UTF-16 units, and within the rule of displayNameProblem. */
export const displayNameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty (use null to clear it)")
  .superRefine((name, ctx) => {
    // zod's max counts code points; the limit is in UTF-16 units, as a form's maxlength counts them.
    if (name.length > DISPLAY_NAME_MAX_LENGTH) {
      ctx.addIssue({ code: "custom", message: `must be at most ${DISPLAY_NAME_MAX_LENGTH} characters (UTF-16 units: most emoji count as 2 or more)` });
      return;
    }
    const problem = displayNameProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
