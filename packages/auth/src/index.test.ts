// API keys (generated, prefixed, hashed and matched) and salted password hashes.
import { apiKeyMatches, apiKeyPrefix, generateApiKey, hashPassword, verifyPassword } from "./index";

describe("API keys", () => {
  it("generates pw_ keys whose prefix is the stored lookup id and whose hash matches", () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^pw_[a-z2-7]{40}$/);
    expect(prefix).toBe(key.slice(0, 11));
    expect(apiKeyPrefix(key)).toBe(prefix);
    expect(apiKeyMatches(key, hash)).toBe(true);
  });

  it("never generates the same key twice in a thousand tries", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key));
    expect(keys.size).toBe(1000);
  });

  it("rejects a key that differs by one character, and strings that cannot be keys", () => {
    const { key, hash } = generateApiKey();
    const last = key.at(-1) === "a" ? "b" : "a";
    expect(apiKeyMatches(key.slice(0, -1) + last, hash)).toBe(false);
    expect(apiKeyPrefix("pw_EXAMPLE_not_a_real_key")).toBeNull();
    expect(apiKeyPrefix("")).toBeNull();
    expect(apiKeyMatches(key, "not-hex")).toBe(false);
  });
});

describe("passwords", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored.startsWith("scrypt$32768$8$1$")).toBe(true);
    await expect(verifyPassword("correct horse battery staple", stored)).resolves.toBe(true);
    await expect(verifyPassword("correct horse battery stapler", stored)).resolves.toBe(false);
    await expect(verifyPassword("x", "garbage")).resolves.toBe(false);
  });

  it("salts: the same password hashes differently each time", async () => {
    expect(await hashPassword("pw")).not.toBe(await hashPassword("pw"));
  });
});
