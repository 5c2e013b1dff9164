// Display names read-api may show: bad-word and identity fallbacks, anonymous names, avatars, word file.
import { createHmac } from "node:crypto";
import { parseBadWords } from "./bad-words";
import { anonymousName, avatarSeed, cleanName, containsBadWord, displayOf, revealsIdentity } from "./privacy";

const urls = { avatarProxyUrl: "https://img.test", generatedAvatarUrl: "https://gen.test/a.svg" };
const words = ["admin", "fuck", "Mod"];

describe("display name rules", () => {
  it("uses the user-set name when it contains no bad word", () => {
    expect(displayOf({ displayName: "Moon Walker", xUsername: "moon_x", secretSeed: "s1" }, words, urls).display_name).toBe("Moon Walker");
  });

  it("falls back to the linked X username when the name contains a bad word as a case-insensitive substring", () => {
    for (const name of ["SuperADMIN", "xXfUcKXx", "the moderator"]) {
      expect(displayOf({ displayName: name, xUsername: "moon_x", secretSeed: "s1" }, words, urls).display_name).toBe("moon_x");
    }
  });

  it("falls back to the anonymous name when there is neither a clean name nor an X username", () => {
    const profile = displayOf({ displayName: "admin", xUsername: null, secretSeed: "seed-a" }, words, urls);
    expect(profile.display_name).toBe(anonymousName("seed-a"));
    expect(displayOf({ displayName: null, xUsername: null, secretSeed: "seed-a" }, words, urls).display_name).toBe(anonymousName("seed-a"));
    expect(displayOf({ displayName: "   ", xUsername: null, secretSeed: "seed-a" }, words, urls).display_name).toBe(anonymousName("seed-a"));
  });

  it("sees through full-width letters and invisible characters when matching bad words", () => {
    expect(containsBadWord("ａｄｍｉｎ", words)).toBe(true);
    expect(containsBadWord("ad\u200Bmin", words)).toBe(true);
    expect(containsBadWord("Adam Inn", words)).toBe(false);
  });

  it("refuses a name that is or contains an e-mail, a wallet, a provider id or one of the user's own account ids", () => {
    const names = [
      "me@example.com",
      "gm 0x52908400098527886E0F7030069857D2E4169EE7",
      "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
      "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
      "discord 80351110224678912",
      "player mysecret_handle",
    ];
    for (const name of names) expect(revealsIdentity(name, ["mysecret_handle"])).toBe(true);
    for (const name of names)
      expect(displayOf({ displayName: name, xUsername: null, secretSeed: "s", accountIds: ["mysecret_handle"] }, [], urls).display_name).toBe(
        anonymousName("s"),
      );
    expect(revealsIdentity("Player 42", ["42"])).toBe(false);
    expect(revealsIdentity("Satoshi's Cat", [])).toBe(false);
  });

  it("cleans a user-set name: control characters removed, spaces collapsed, cut at 64 code points", () => {
    expect(cleanName("  Moon\u0000 \n  Walker\u200E ")).toBe("Moon Walker");
    expect(Array.from(cleanName("🚀".repeat(100))).length).toBe(64);
  });

  it("does not show a stored name that breaks the display-name rule: the X username, else the anonymous name, takes its place", () => {
    const broken = [
      "evil\u202Egnp.exe", // right-to-left override
      "Moon\u2066Walker\u2069", // isolate
      "Moon\u200BWalker", // zero-width space
      "Moon\uFEFFWalker", // zero-width no-break space
      "Moon\u2028Walker", // line separator
      "Moon\u0000Walker", // control character
      `Z${"\u0301".repeat(30)}algo`, // a stack of combining marks
    ];
    for (const displayName of broken) {
      expect(displayOf({ displayName, xUsername: "moon_x", secretSeed: "s1" }, [], urls).display_name).toBe("moon_x");
      expect(displayOf({ displayName, xUsername: null, secretSeed: "s1" }, [], urls).display_name).toBe(anonymousName("s1"));
    }
    // Up to two marks in a row, and surrounding spaces, are fine.
    expect(displayOf({ displayName: " Nguye\u0302\u0303n ", xUsername: null, secretSeed: "s1" }, [], urls).display_name).toBe("Nguyễn");
  });

  it("shows an X handle only when it has the shape of an X username", () => {
    const bad = displayOf({ displayName: null, xUsername: "a@b.co", secretSeed: "s" }, [], urls);
    expect(bad.identities).toEqual({});
    expect(bad.display_name).toBe(anonymousName("s"));
  });
});

describe("anonymous names and avatars", () => {
  it("gives a stable, readable name per seed, different for different seeds", () => {
    expect(anonymousName("seed-1")).toBe(anonymousName("seed-1"));
    expect(anonymousName("seed-1")).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+ \d{4}$/);
    const names = new Set(Array.from({ length: 200 }, (_, i) => anonymousName(`seed-${i}`)));
    expect(names.size).toBeGreaterThan(195);
  });

  it("derives the avatar seed from a keyed hash of the secret seed, so it contains nothing of the user", () => {
    const seed = "0123456789abcdef0123456789abcdef";
    const expected = createHmac("sha256", seed).update("pointwise:avatar").digest("hex").slice(0, 24);
    expect(avatarSeed(seed)).toBe(expected);
    expect(avatarSeed(seed)).not.toContain(seed.slice(0, 8));
  });

  it("points the avatar at the X proxy when X is linked, else at the generated avatar with the seed", () => {
    expect(displayOf({ displayName: null, xUsername: "moon_x", secretSeed: "s" }, [], urls)).toEqual({
      display_name: "moon_x",
      avatar_url: "https://img.test/x/moon_x",
      identities: { x_username: "moon_x" },
    });
    expect(displayOf({ displayName: "Moon", xUsername: null, secretSeed: "s" }, [], urls).avatar_url).toBe(`https://gen.test/a.svg?seed=${avatarSeed("s")}`);
    expect(
      displayOf({ displayName: "Moon", xUsername: null, secretSeed: "s" }, [], { ...urls, generatedAvatarUrl: "https://g.test/?style=pixel" }).avatar_url,
    ).toBe(`https://g.test/?style=pixel&seed=${avatarSeed("s")}`);
  });
});

describe("bad-word file", () => {
  it("reads one word per line, skipping comments and blanks, lower-cased and deduplicated", () => {
    expect(parseBadWords("# comment\nAdmin\n\n  spam  \nadmin\r\nfree mint\n")).toEqual(["admin", "spam", "free mint"]);
  });
});
