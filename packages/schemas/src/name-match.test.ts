// The comparison form of display names, and the identities it finds however they are written.
import { ValidationError } from "@pointwise/errors";
import fc from "fast-check";
import { compactForm, containsBadWord, matchForm, refuseHiddenDisplayName, revealsIdentity } from "./name-match";

// What a reader reads past between the parts of an address (all removed by compactForm).
const SEPARATORS = [" ", "  ", ".", "-", "_", "\u2013", "\u00B7", "/", ":", "\u00A0", "\u3000", "\u200B", "\u00AD", "🚀"];

describe("matchForm", () => {
  it("folds full-width and mathematical letters, invisible characters, case and combining marks", () => {
    expect(matchForm("ＡＤＭＩＮ")).toBe("admin");
    expect(matchForm("𝐀𝐃𝐌𝐈𝐍")).toBe("admin");
    expect(matchForm("ad\u00ADmin")).toBe("admin");
    // U+0130 lower-cases to "i" + U+0307; the dot goes with the other marks.
    expect("İ".toLowerCase()).toBe("i\u0307");
    expect(matchForm("ADMİN")).toBe("admin");
    expect(matchForm("Àdmín")).toBe("admin");
    // Scripts that NFD takes apart without marks come back whole.
    expect(matchForm("한국어")).toBe("한국어");
  });

  it("keeps letters and digits only in the compact form", () => {
    expect(compactForm("0x AB58 · 01a7–d398_351b")).toBe("0xab5801a7d398351b");
  });
});

describe("containsBadWord", () => {
  it("matches a word in any of the forms matchForm folds, on either side", () => {
    expect(containsBadWord("SuperADMİN", ["admin"])).toBe(true);
    expect(containsBadWord("super admin", ["ADMİN"])).toBe(true);
    expect(containsBadWord("Adam Inn", ["admin"])).toBe(false);
  });
});

describe("revealsIdentity", () => {
  it("refuses any EVM address with or without 0x, in any case, with any separators between its parts", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 39 }), fc.constantFrom(...SEPARATORS)), { maxLength: 12 }),
        fc.constantFrom("", "gm ", "wallet: ", "Moon "),
        (bytes, prefixed, upper, cuts, before) => {
          let hex = Buffer.from(bytes).toString("hex");
          if (upper) hex = hex.toUpperCase();
          // Insert the separators from the last cut to the first so earlier positions stay where they were.
          for (const [at, sep] of [...cuts].sort((a, b) => b[0] - a[0])) hex = `${hex.slice(0, at)}${sep}${hex.slice(at)}`;
          return revealsIdentity(`${before}${prefixed ? "0x" : ""}${hex}`);
        },
      ),
    );
  });

  it("refuses an e-mail address with spaces around its @ or dots", () => {
    for (const name of ["eve.audit @ example.com", "eve . audit @ example . com", "eve.audit＠example.com", "eve.audit@example .com"]) {
      expect({ name, refused: revealsIdentity(name) }).toEqual({ name, refused: true });
    }
  });

  it("finds the user's own ids after the same folding: an EVM id without 0x, any case, separators removed", () => {
    const evm = "0xab5801a7d398351b8be11c439e05c5b3259aec9b";
    expect(revealsIdentity("AB5801A7 D398351B 8BE11C43", [evm])).toBe(false); // part of it only
    expect(revealsIdentity("ab5801a7d398351b8be11c439e05c5b3259aec9b", [evm])).toBe(true);
    expect(revealsIdentity("player 5823 7194", ["58237194"])).toBe(true);
    expect(revealsIdentity("Player 42", ["42"])).toBe(false); // too short to hold against a name
  });

  it("keeps names that are not an identity however they are spaced", () => {
    for (const name of ["Team 42", "0xSam", "0x0 Fan Club", "Dead Beef Cafe", "Mr. Smith", "Ann @ Home", "Class of 2024 - 2025", "Satoshi's Cat"]) {
      expect({ name, refused: revealsIdentity(name) }).toEqual({ name, refused: false });
    }
  });
});

describe("refuseHiddenDisplayName", () => {
  const refusal = (name: string, badWords: string[][], ownIds: string[] = []) => {
    try {
      refuseHiddenDisplayName(name, { badWords, ownIds });
      return null;
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      return { code: err.code, field: err.field, message: err.message };
    }
  };
  const badWord = {
    code: "display-name-not-allowed",
    field: "display_name",
    message: "display_name contains a word this campaign does not allow on its boards",
  };
  const identity = {
    code: "display-name-not-allowed",
    field: "display_name",
    message: "display_name looks like an e-mail address, a wallet address or an account id, which boards never show",
  };

  it("refuses a word of any of the lists, naming the rule", () => {
    expect(refusal("Official Bot", [["official"], []])).toEqual(badWord);
    expect(refusal("MoonFarmer", [["official"], ["farmer"]])).toEqual(badWord);
  });

  it("refuses a name that shows an identity, the user's own or any address, naming the rule", () => {
    expect(refusal("fan 80351110", [[]], ["80351110"])).toEqual(identity);
    expect(refusal("eve@example.com", [[]])).toEqual(identity);
  });

  it("names the bad word first when a name has both problems", () => {
    expect(refusal("official eve@example.com", [["official"]])).toEqual(badWord);
  });

  it("lets a clean name through", () => {
    expect(refusal("Captain Points", [["official"], ["farmer"]], ["80351110"])).toBeNull();
  });
});
