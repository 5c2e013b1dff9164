// E-mail account ids: accepted and refused forms, the 254-character limit, and the stored lowercase form.
import { ValidationError } from "@pointwise/errors";
import fc from "fast-check";
import { normalizeAccountId } from "./identity";
import { MAX_EMAIL_LENGTH } from "./identity-email";

function rejection(accountId: string): ValidationError {
  try {
    normalizeAccountId("EMAIL", accountId);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(accountId)} to be rejected`);
}

describe("EMAIL", () => {
  it.each([
    ["alice@example.com", "alice@example.com"],
    ["  Alice.Smith+Loyalty@Example.COM \n", "alice.smith+loyalty@example.com"],
    ["o'brien_x-y@sub.example.co.uk", "o'brien_x-y@sub.example.co.uk"],
    ["user@xn--bcher-kva.example", "user@xn--bcher-kva.example"],
    ["José@Bücher.de", "josé@bücher.de"],
    // "e" + U+0301 (combining acute) composes to the single code point U+00E9.
    ["Jose\u0301@example.com", "jos\u00e9@example.com"],
    ["a@b.co", "a@b.co"],
  ])("accepts %j and stores %j", (input, stored) => {
    expect(normalizeAccountId("EMAIL", input)).toBe(stored);
  });

  it.each([
    ["", /must not be empty/],
    ["   ", /must not be empty/],
    ["alice.example.com", /must contain @/],
    ["alice@@example.com", /exactly one @/],
    ["a@b@example.com", /exactly one @/],
    ["@example.com", /the part before @ is empty/],
    ["alice@", /the domain after @ is empty/],
    ["alice@localhost", /the domain must contain a dot/],
    ["alice smith@example.com", /contains a space, control character or special/],
    ["alice\u0000@example.com", /contains a space, control character or special/],
    ["alice\u200b@example.com", /contains a space, control character or special/],
    ['"alice"@example.com', /contains a space, control character or special/],
    ["alice(comment)@example.com", /contains a space, control character or special/],
    [".alice@example.com", /must not start or end with a dot/],
    ["alice.@example.com", /must not start or end with a dot/],
    ["al..ice@example.com", /two dots in a row/],
    ["alice@example..com", /empty label/],
    ["alice@.example.com", /empty label/],
    ["alice@example.com.", /empty label/],
    ["alice@-example.com", /must not start or end with a hyphen/],
    ["alice@example-.com", /must not start or end with a hyphen/],
    ["alice@exa_mple.com", /only letters, digits, hyphens and dots/],
    ["alice@[127.0.0.1]", /only letters, digits, hyphens and dots/],
    ["alice@127.0.0.1", /top-level domain must not be all digits/],
    ["alice@exa mple.com", /only letters, digits, hyphens and dots/],
    [`${"a".repeat(65)}@example.com`, /longer than 64 characters/],
    [`alice@${"a".repeat(64)}.com`, /label is longer than 63 characters/],
  ])("rejects %j", (input, reason) => {
    const err = rejection(input);
    expect(err.code).toBe("invalid-account-id");
    expect(err.field).toBe("account_id");
    expect(err.message).toMatch(/^account_id is not a valid EMAIL: /);
    expect(err.message).toMatch(reason);
  });

  it("accepts a local part of exactly 64 characters, counted as characters rather than UTF-16 units", () => {
    expect(normalizeAccountId("EMAIL", `${"a".repeat(64)}@example.com`)).toBe(`${"a".repeat(64)}@example.com`);
    // U+1D4B6 MATHEMATICAL SCRIPT SMALL A is one character but two UTF-16 units.
    const wide = "\u{1d4b6}".repeat(64);
    expect(wide).toHaveLength(128);
    expect(normalizeAccountId("EMAIL", `${wide}@example.com`)).toBe(`${wide}@example.com`);
    expect(rejection(`${"a".repeat(65)}@example.com`).message).toBe("account_id is not a valid EMAIL: the part before @ is longer than 64 characters");
  });

  it("accepts a domain label of exactly 63 characters and refuses 64", () => {
    expect(normalizeAccountId("EMAIL", `alice@${"a".repeat(63)}.com`)).toBe(`alice@${"a".repeat(63)}.com`);
    expect(normalizeAccountId("EMAIL", `alice@example.${"b".repeat(63)}`)).toBe(`alice@example.${"b".repeat(63)}`);
    expect(rejection(`alice@${"a".repeat(64)}.com`).message).toBe("account_id is not a valid EMAIL: a domain label is longer than 63 characters");
  });

  it.each(["alice@example.123", "alice@example.com.42", "alice@1.23"])("refuses the all-digit top-level domain of %j", (input) => {
    expect(rejection(input).message).toBe("account_id is not a valid EMAIL: the top-level domain must not be all digits");
  });

  it.each(["alice@example.x1", "alice@example.1x", "alice@123.example", "alice@example.c0m"])(
    "accepts the mixed or lettered top-level domain of %j",
    (input) => {
      expect(normalizeAccountId("EMAIL", input)).toBe(input);
    },
  );

  it.each([
    ["alice@_example.com", "the domain may contain only letters, digits, hyphens and dots"],
    ["alice@example_.com", "the domain may contain only letters, digits, hyphens and dots"],
    ["alice@-example.com", "a domain label must not start or end with a hyphen"],
    ["alice@localhost", "the domain must contain a dot"],
    ["alice@", "the domain after @ is empty"],
    ["a@b@example.com", "must contain exactly one @"],
    ["alice.example.com", "must contain @"],
    ["   ", "must not be empty"],
  ])("refuses %j with exactly the reason %j", (input, reason) => {
    expect(rejection(input).message).toBe(`account_id is not a valid EMAIL: ${reason}`);
  });

  it("does not echo the address in its error message", () => {
    expect(rejection("secret.person@localhost").message).not.toContain("secret.person");
  });

  it("accepts exactly 254 characters and rejects 255", () => {
    const domain = `${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(60)}.${"g".repeat(50)}.com`; // 237 characters
    const fits = `${"l".repeat(MAX_EMAIL_LENGTH - domain.length - 1)}@${domain}`;
    expect(fits).toHaveLength(254);
    expect(normalizeAccountId("EMAIL", fits)).toBe(fits);
    const tooLong = `l${fits}`;
    expect(rejection(tooLong).message).toMatch(/longer than 254 characters/);
  });

  it("counts the limit after trimming, so surrounding spaces do not count", () => {
    const domain = `${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(60)}.${"g".repeat(50)}.com`;
    const fits = `${"l".repeat(MAX_EMAIL_LENGTH - domain.length - 1)}@${domain}`;
    expect(normalizeAccountId("EMAIL", `   ${fits}   `)).toBe(fits);
  });

  it("refuses a huge input quickly by its length", () => {
    expect(rejection(`${"a".repeat(100_000)}@example.com`).message).toMatch(/longer than 254 characters/);
  });

  it("stores every generated address trimmed and lowercased, and the stored form is a fixed point", () => {
    const atom = fc.stringMatching(/^[A-Za-z0-9_+-]{1,12}$/);
    const label = fc.stringMatching(/^[A-Za-z0-9]([A-Za-z0-9-]{0,10}[A-Za-z0-9])?$/);
    const tld = fc.stringMatching(/^[A-Za-z]{2,6}$/);
    const address = fc
      .tuple(fc.array(atom, { minLength: 1, maxLength: 3 }), fc.array(label, { minLength: 1, maxLength: 3 }), tld, fc.constantFrom("", " ", "\t"))
      .map(([local, labels, top, pad]) => ({ raw: `${pad}${local.join(".")}@${[...labels, top].join(".")}${pad}`, local, labels, top }));
    fc.assert(
      fc.property(address, ({ raw, local, labels, top }) => {
        const expected = `${local.join(".")}@${[...labels, top].join(".")}`.toLowerCase();
        const stored = normalizeAccountId("EMAIL", raw);
        expect(stored).toBe(expected);
        expect(normalizeAccountId("EMAIL", stored)).toBe(stored);
      }),
    );
  });
});
