// Display names read-api may show: bad-word and identity fallbacks, anonymous names, avatars, word file.
import { createHmac } from "node:crypto";
import { containsBadWord, parseBadWords, revealsIdentity } from "@pointwise/schemas";
import { anonymousName, avatarSeed, cleanName, displayOf } from "./privacy";

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

  // An address or e-mail written so a reader still reads it: no 0x, spaced, dotted, in other letter forms.
  const ADDRESS = "ab5801a7d398351b8be11c439e05c5b3259aec9b";
  const WRITTEN_ADDRESSES = [
    ADDRESS, // no 0x
    ADDRESS.toUpperCase(),
    `0x ${ADDRESS}`, // a space after the prefix
    `0X${ADDRESS.toUpperCase()}`,
    "0xab58 01a7 d398 351b 8be1 1c43 9e05 c5b3 259a ec9b", // in groups of four
    "ab58.01a7.d398.351b.8be1.1c43.9e05.c5b3.259a.ec9b",
    "ab58-01a7-d398-351b-8be1-1c43-9e05-c5b3-259a-ec9b",
    "0x ab58_01a7  d398 · 351b 8be1–1c43 9e05 c5b3 259a ec9b", // mixed separators, an en dash, a double space
    "０ｘａｂ５８０１ａ７ｄ３９８３５１ｂ８ｂｅ１１ｃ４３９ｅ０５ｃ５ｂ３２５９ａｅｃ９ｂ", // full-width
    // Mathematical bold digits (U+1D7CE...) and small letters (U+1D41A...).
    `gm ${Array.from(ADDRESS, (c) => String.fromCodePoint(/\d/.test(c) ? 0x1d7ce + Number(c) : 0x1d41a + c.charCodeAt(0) - 97)).join("")}`,
  ];

  it("refuses a wallet address however it is written: without 0x, in any case, with separators between its parts", () => {
    for (const name of WRITTEN_ADDRESSES) {
      expect({ name, refused: revealsIdentity(name) }).toEqual({ name, refused: true });
      // What the same user shows with no name at all is the oracle: the refused name gives way to that fallback.
      expect({ name, shown: displayOf({ displayName: name, xUsername: null, secretSeed: "s" }, [], urls).display_name }).toEqual({
        name,
        shown: displayOf({ displayName: null, xUsername: null, secretSeed: "s" }, [], urls).display_name,
      });
    }
    // Invisible characters between the parts (the display rule already hides such names; the check must not depend on it).
    expect(revealsIdentity(`0x${ADDRESS.slice(0, 20)}\u200B${ADDRESS.slice(20)}`)).toBe(true);
    expect(revealsIdentity(`${ADDRESS.slice(0, 20)}\u00AD${ADDRESS.slice(20)}`)).toBe(true);
  });

  it("refuses the user's own wallet address as their name without the 0x the stored id has", () => {
    const own = { xUsername: "own_x", secretSeed: "s", accountIds: [`0x${ADDRESS}`] };
    expect(displayOf({ ...own, displayName: ADDRESS }, [], urls).display_name).toBe("own_x");
    expect(displayOf({ ...own, displayName: `my wallet ${ADDRESS.slice(0, 12)} ${ADDRESS.slice(12).toUpperCase()}` }, [], urls).display_name).toBe("own_x");
  });

  it("matches the user's own account ids case-insensitively and with separators removed", () => {
    const ids = ["eve.audit@example.com", "80351110224678912", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"];
    for (const name of ["EVE AUDIT example com", "discord 8035 1110 2246 78912", "7ecdh sygxx yscsz yep35 khn8v vw3sv auLKT zxwcf LtV"]) {
      expect({ name, refused: revealsIdentity(name, ids) }).toEqual({ name, refused: true });
    }
  });

  it("refuses an e-mail address with spaces around the @ or the dots", () => {
    for (const name of [
      "eve.audit @ example.com",
      "eve.audit@ example.com",
      "eve.audit @example.com",
      "eve . audit @ example . com",
      "eve.audit＠example.com",
    ]) {
      expect({ name, refused: revealsIdentity(name) }).toEqual({ name, refused: true });
    }
  });

  it("keeps ordinary names that only look a little like an identity", () => {
    const names = [
      "Team 42",
      "0xSam",
      "0x0 Fan Club",
      "Dead Beef Cafe",
      "deadbeef 2024",
      "Player 1 of 2",
      "Mr. Smith",
      "Ann @ Home",
      "José Ñ",
      "Nguyễn Văn A",
      "Satoshi's Cat",
      "Class of 2024 - 2025",
    ];
    for (const name of names) {
      expect({ name, refused: revealsIdentity(name, [`0x${ADDRESS}`, "eve.audit@example.com"]) }).toEqual({ name, refused: false });
      expect(displayOf({ displayName: name, xUsername: null, secretSeed: "s" }, words, urls).display_name).toBe(name);
    }
  });

  it("matches a bad word through accents and a capital dotted I, which lower-cases to i and a combining dot", () => {
    for (const name of ["ADMİN", "SuperADMİN", "ÀDMÍN", "ａｄｍİｎ"]) {
      expect({ name, bad: containsBadWord(name, words) }).toEqual({ name, bad: true });
      expect(displayOf({ displayName: name, xUsername: "moon_x", secretSeed: "s1" }, words, urls).display_name).toBe("moon_x");
    }
    // The list's own words are compared in the same form.
    expect(containsBadWord("Super admin", ["ADMİN"])).toBe(true);
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
