// Display rules for public boards: clean or anonymous names, bad-word and identity filters, avatars.
import { createHmac } from "node:crypto";
import { containsBadWord, displayNameProblem, revealsIdentity } from "@pointwise/schemas";

const ADJECTIVES = [
  "Amber",
  "Bold",
  "Brisk",
  "Calm",
  "Clever",
  "Cosmic",
  "Daring",
  "Eager",
  "Fuzzy",
  "Gentle",
  "Golden",
  "Happy",
  "Jolly",
  "Keen",
  "Lively",
  "Lucky",
  "Mellow",
  "Nimble",
  "Noble",
  "Plucky",
  "Quiet",
  "Rapid",
  "Shiny",
  "Silver",
  "Sly",
  "Sunny",
  "Swift",
  "Tidy",
  "Vivid",
  "Witty",
  "Zany",
  "Zesty",
];
const ANIMALS = [
  "Badger",
  "Bison",
  "Crane",
  "Dolphin",
  "Falcon",
  "Ferret",
  "Fox",
  "Gecko",
  "Heron",
  "Ibis",
  "Jaguar",
  "Koala",
  "Lemur",
  "Lynx",
  "Marmot",
  "Newt",
  "Otter",
  "Owl",
  "Panda",
  "Puffin",
  "Quokka",
  "Raven",
  "Seal",
  "Sloth",
  "Stoat",
  "Tapir",
  "Tiger",
  "Toucan",
  "Walrus",
  "Wombat",
  "Yak",
  "Zebra",
];

/** Longest user-set name shown, in code points; longer names are cut. */
export const MAX_DISPLAY_NAME_LENGTH = 64;

/** What X allows in a username; a stored handle of any other shape is not shown. */
const X_USERNAME = /^[A-Za-z0-9_]{1,15}$/;

/** Derives a non-reversible value from the user's secret seed: HMAC-SHA256 keyed by the seed. */
function derive(secretSeed: string, purpose: string): Buffer {
  return createHmac("sha256", secretSeed).update(purpose).digest();
}

/** A readable, stable anonymous name such as "Swift Otter 4821", seeded by the user's secret value. */
export function anonymousName(secretSeed: string): string {
  const h = derive(secretSeed, "pointwise:anonymous-name");
  const adjective = ADJECTIVES[(h[0] ?? 0) % ADJECTIVES.length];
  const animal = ANIMALS[(h[1] ?? 0) % ANIMALS.length];
  const number = h.readUInt16BE(2) % 10000;
  return `${adjective} ${animal} ${String(number).padStart(4, "0")}`;
}

/** A seed for the generated avatar that reveals nothing about the user (hex of a keyed hash). */
export function avatarSeed(secretSeed: string): string {
  return derive(secretSeed, "pointwise:avatar").subarray(0, 12).toString("hex");
}

/** A user-set name cleaned for display: NFKC, no control or format characters, single spaces, at most 64 code points. */
export function cleanName(raw: string | null | undefined): string {
  if (!raw) return "";
  const text = raw
    .normalize("NFKC")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
  return Array.from(text).slice(0, MAX_DISPLAY_NAME_LENGTH).join("").trim();
}

/** A stored X handle when it has the shape of an X username, else null (never shown). */
export function cleanXUsername(handle: string | null | undefined): string | null {
  return handle && X_USERNAME.test(handle) ? handle : null;
}

/** What the display rules need about a user; `accountIds` are used only to refuse names that contain them. */
export interface DisplaySource {
  displayName: string | null;
  xUsername: string | null;
  secretSeed: string;
  accountIds?: readonly string[];
}

/** Where avatars come from. */
export interface AvatarUrls {
  avatarProxyUrl: string;
  generatedAvatarUrl: string;
}

/** The privacy-safe face of a user on every public and per-user response. */
export interface PublicProfile {
  display_name: string;
  avatar_url: string;
  identities: { x_username?: string };
}

/**
 * True when a stored user-set name breaks the display-name rule of `@pointwise/schemas` (bidi
 * controls, zero-width or separator characters, stacks of combining marks): stored before the rule,
 * or written around the admin API. Such a name is not shown at all, rather than shown stripped:
 * what is left after stripping is not what its author meant, and may be what they meant to hide.
 */
export function breaksNameRule(raw: string | null | undefined): boolean {
  return raw != null && displayNameProblem(raw.trim()) !== null;
}

/**
 * Applies the display rules: the user-set name unless it breaks the display-name rule, contains a
 * bad word (or an identity), else the linked X username, else an anonymous name seeded by the
 * user's secret value; and the avatar. Bad words and identities are matched as `@pointwise/schemas`
 * compares names (`containsBadWord`, `revealsIdentity`); portal-api refuses such names by the same comparisons.
 */
export function displayOf(user: DisplaySource, badWords: readonly string[], urls: AvatarUrls): PublicProfile {
  const x = cleanXUsername(user.xUsername);
  const custom = breaksNameRule(user.displayName) ? "" : cleanName(user.displayName);
  const allowed = custom !== "" && !containsBadWord(custom, badWords) && !revealsIdentity(custom, user.accountIds);
  const displayName = allowed ? custom : (x ?? anonymousName(user.secretSeed));
  const joiner = urls.generatedAvatarUrl.includes("?") ? "&" : "?";
  const avatarUrl = x ? `${urls.avatarProxyUrl}/x/${encodeURIComponent(x)}` : `${urls.generatedAvatarUrl}${joiner}seed=${avatarSeed(user.secretSeed)}`;
  return { display_name: displayName, avatar_url: avatarUrl, identities: x ? { x_username: x } : {} };
}
