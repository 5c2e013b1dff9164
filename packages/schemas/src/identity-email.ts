/**
 * A pragmatic e-mail address check: the shape `local@domain` with the limits of RFC 5321, not the
 * full RFC 5322 grammar (quoted local parts, comments and IP-literal domains are refused because
 * nobody signs up to a loyalty programme with them). Non-ASCII letters are allowed (RFC 6531).
 */
import { type Checked, fail, ok } from "./identity-check";

/** Longest accepted address, in characters, after trimming and NFC normalisation. */
export const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;
const MAX_LABEL_LENGTH = 63;

// RFC 5322 "specials" plus whitespace, control, format and unassigned characters.
const LOCAL_FORBIDDEN = /[\s\p{C}\p{Z}()<>[\]:;@\\,"]/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}\p{M}-]+$/u;
const DIGITS_ONLY = /^[0-9]+$/;

function checkLocal(local: string): Checked<string> {
  if (local.length === 0) return fail("the part before @ is empty");
  if ([...local].length > MAX_LOCAL_LENGTH) {
    return fail(`the part before @ is longer than ${MAX_LOCAL_LENGTH} characters`);
  }
  if (LOCAL_FORBIDDEN.test(local)) return fail("the part before @ contains a space, control character or special");
  if (local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
    return fail("the part before @ must not start or end with a dot or contain two dots in a row");
  }
  return ok(local);
}

function checkDomain(domain: string): Checked<string> {
  if (domain.length === 0) return fail("the domain after @ is empty");
  // RFC 5321's 253-character domain limit needs no check of its own: the whole address is at most
  // 254 characters and the local part and the @ take at least two of them.
  const labels = domain.split(".");
  if (labels.length < 2) return fail("the domain must contain a dot");
  for (const label of labels) {
    if (label.length === 0) return fail("the domain has an empty label");
    if ([...label].length > MAX_LABEL_LENGTH) {
      return fail(`a domain label is longer than ${MAX_LABEL_LENGTH} characters`);
    }
    if (!DOMAIN_LABEL.test(label)) return fail("the domain may contain only letters, digits, hyphens and dots");
    if (label.startsWith("-") || label.endsWith("-")) {
      return fail("a domain label must not start or end with a hyphen");
    }
  }
  if (DIGITS_ONLY.test(domain.slice(domain.lastIndexOf(".") + 1))) {
    return fail("the top-level domain must not be all digits");
  }
  return ok(domain);
}

/**
 * Validates an e-mail address and returns its stored form: trimmed, NFC-normalised and lowercased
 * (the local part too, so Alice@x.io and alice@x.io are one identity).
 */
export function normalizeEmail(input: string): Checked<string> {
  const trimmed = input.trim();
  if (trimmed.length === 0) return fail("must not be empty");
  // NFC at most triples a string's length, so past 4x the limit the address can never pass:
  // refusing early keeps normalisation cheap on hostile input.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut, the length check below gives the same answer
  if (trimmed.length > MAX_EMAIL_LENGTH * 4) return fail(`longer than ${MAX_EMAIL_LENGTH} characters`);
  // Lowercasing can produce decomposed sequences (e.g. U+0130), so normalise again afterwards.
  const normalised = trimmed.normalize("NFC").toLowerCase().normalize("NFC");
  if ([...normalised].length > MAX_EMAIL_LENGTH) return fail(`longer than ${MAX_EMAIL_LENGTH} characters`);
  const at = normalised.indexOf("@");
  if (at === -1) return fail("must contain @");
  if (normalised.indexOf("@", at + 1) !== -1) return fail("must contain exactly one @");
  const local = checkLocal(normalised.slice(0, at));
  if (!local.ok) return local;
  const domain = checkDomain(normalised.slice(at + 1));
  if (!domain.ok) return domain;
  return ok(normalised);
}
