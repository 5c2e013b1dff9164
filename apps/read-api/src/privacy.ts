import { createHmac } from "node:crypto";

const ADJECTIVES = ["Amber", "Bold", "Brisk", "Calm", "Clever", "Cosmic", "Daring", "Eager", "Fuzzy", "Gentle", "Golden", "Happy", "Jolly", "Keen", "Lively", "Lucky", "Mellow", "Nimble", "Noble", "Plucky", "Quiet", "Rapid", "Shiny", "Silver", "Sly", "Sunny", "Swift", "Tidy", "Vivid", "Witty", "Zany", "Zesty"];
const ANIMALS = ["Badger", "Bison", "Crane", "Dolphin", "Falcon", "Ferret", "Fox", "Gecko", "Heron", "Ibis", "Jaguar", "Koala", "Lemur", "Lynx", "Marmot", "Newt", "Otter", "Owl", "Panda", "Puffin", "Quokka", "Raven", "Seal", "Sloth", "Stoat", "Tapir", "Tiger", "Toucan", "Walrus", "Wombat", "Yak", "Zebra"];

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

/** True when `name` contains any bad word as a case-insensitive substring. */
export function containsBadWord(name: string, badWords: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return badWords.some((w) => w.length > 0 && lower.includes(w.toLowerCase()));
}

/** What the display rules need about a user. */
export interface DisplaySource {
  displayName: string | null;
  xUsername: string | null;
  secretSeed: string;
}

/** Applies the spec's display rules: clean user-set name, else X username, else anonymous name; and the avatar. */
export function displayOf(user: DisplaySource, badWords: readonly string[], urls: { avatarProxyUrl: string; generatedAvatarUrl: string }) {
  const custom = user.displayName?.trim();
  const displayName = custom && !containsBadWord(custom, badWords) ? custom : (user.xUsername ?? anonymousName(user.secretSeed));
  const avatarUrl = user.xUsername
    ? `${urls.avatarProxyUrl}/x/${encodeURIComponent(user.xUsername)}`
    : `${urls.generatedAvatarUrl}?seed=${avatarSeed(user.secretSeed)}`;
  return { display_name: displayName, avatar_url: avatarUrl, identities: user.xUsername ? { x_username: user.xUsername } : {} };
}
