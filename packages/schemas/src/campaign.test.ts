// Wire formats of campaign ids, currency keys and names, and UUIDs: each accepted at its limits and refused one past them.
import { CAMPAIGN_ID_PATTERN, campaignIdSchema, currencyKeySchema, currencyNamesSchema, isCampaignId, UUID_PATTERN } from "./campaign";

/** The messages zod reports for a value, or "ok". */
const messages = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? "ok" : (r.error?.issues.map((i) => i.message) ?? []);
};

describe("campaign id", () => {
  it("accepts two groups of four lowercase letters or digits joined by a hyphen", () => {
    for (const id of ["ab12-cd34", "0000-zzzz", "a9z0-9a0z"]) {
      expect(isCampaignId(id)).toBe(true);
      expect(campaignIdSchema.parse(id)).toBe(id);
    }
  });

  it("refuses uppercase, other separators, groups of another length and text around the id, with its message", () => {
    for (const id of [
      "AB12-cd34",
      "ab12-cD34",
      "ab12cd34",
      "ab12_cd34",
      "ab1-cd34",
      "ab12-cd3",
      "ab123-cd34",
      "ab12-cd345",
      " ab12-cd34",
      "ab12-cd34\n",
      "x/ab12-cd34",
      "ab12-cd34/x",
      "ab12-cd34-ef56",
    ]) {
      expect(isCampaignId(id)).toBe(false);
      expect(CAMPAIGN_ID_PATTERN.test(id)).toBe(false);
      expect(messages(campaignIdSchema, id)).toEqual(["campaign_id must have the format xxxx-xxxx (lowercase letters and digits)"]);
    }
  });

  it("is never a value that is not a string", () => {
    for (const value of [null, undefined, 12341234, ["ab12-cd34"], { id: "ab12-cd34" }]) expect(isCampaignId(value)).toBe(false);
  });
});

describe("currency key", () => {
  const message = "currency key must be a lowercase identifier of at most 32 characters";

  it("accepts a lowercase letter followed by up to 31 lowercase letters, digits or underscores", () => {
    for (const key of ["x", "xp", "gems_2", `a${"b".repeat(31)}`, "z_9"]) expect(messages(currencyKeySchema, key)).toBe("ok");
  });

  it("refuses a key of 33 characters, one starting with a digit or underscore, uppercase and other characters", () => {
    for (const key of [`a${"b".repeat(32)}`, "", "1xp", "_xp", "Xp", "xP", "x-p", "x p", "xp!", " xp"]) {
      expect(messages(currencyKeySchema, key)).toEqual([message]);
    }
  });
});

describe("currency names", () => {
  it("maps currency keys to names of 1 to 64 characters", () => {
    const names = { xp: "Experience", gems: "g".repeat(64) };
    expect(currencyNamesSchema.parse(names)).toEqual(names);
    expect(currencyNamesSchema.parse({ xp: "X" })).toEqual({ xp: "X" });
  });

  it("refuses an empty map with its message", () => {
    expect(messages(currencyNamesSchema, {})).toEqual(["currencies must name at least one currency"]);
  });

  it("refuses an empty name, a name of 65 characters and a key that is not a currency key", () => {
    expect(currencyNamesSchema.safeParse({ xp: "" }).success).toBe(false);
    expect(currencyNamesSchema.safeParse({ xp: "g".repeat(65) }).success).toBe(false);
    expect(currencyNamesSchema.safeParse({ XP: "Experience" }).success).toBe(false);
  });
});

describe("UUID pattern", () => {
  it("matches the 8-4-4-4-12 hex form of any version, in either case", () => {
    for (const id of [
      "11111111-1111-4111-8111-111111111111",
      "00000000-0000-0000-0000-000000000000",
      "ABCDEF01-2345-6789-ABCD-EF0123456789",
      "abcdef01-2345-1789-abcd-ef0123456789",
    ]) {
      expect(UUID_PATTERN.test(id)).toBe(true);
    }
  });

  it("refuses a group of another length, a non-hex digit, missing hyphens and text around the id", () => {
    for (const id of [
      "1111111-1111-4111-8111-111111111111",
      "11111111-111-4111-8111-111111111111",
      "11111111-1111-411-8111-111111111111",
      "11111111-1111-4111-811-111111111111",
      "11111111-1111-4111-8111-11111111111",
      "11111111-1111-4111-8111-1111111111111",
      "g1111111-1111-4111-8111-111111111111",
      "11111111111141118111111111111111",
      "x11111111-1111-4111-8111-111111111111",
      "11111111-1111-4111-8111-111111111111x",
    ]) {
      expect(UUID_PATTERN.test(id)).toBe(false);
    }
  });
});
