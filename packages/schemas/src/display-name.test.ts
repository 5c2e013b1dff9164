// The display-name rule: each refused class of character, runs of combining marks, and that no accepted name carries any of them.
import fc from "fast-check";
import { DISPLAY_NAME_MAX_LENGTH, displayNameProblem, displayNameSchema } from "./display-name";

// Written out from the rule's own list (Unicode code points), not taken from the code.
const BIDI = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c];
const ZERO_WIDTH = [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff];
const SEPARATORS = [0x2028, 0x2029];
const CONTROLS = [0x00, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x7f, 0x80, 0x9f];
const OTHER_FORMAT = [0x00ad, 0x2061, 0x2064, 0x206a, 0xfff9, 0xe0001, 0xe0041];
const FORBIDDEN = [...BIDI, ...ZERO_WIDTH, ...SEPARATORS, ...CONTROLS, ...OTHER_FORMAT];
const COMBINING_ACUTE = "\u0301";

const parse = (name: string) => {
  const result = displayNameSchema.safeParse(name);
  return result.success ? { ok: result.data } : { error: result.error.issues[0]?.message };
};

describe("display names", () => {
  it("accepts names in any script, with emoji, accents and up to 2 combining marks in a row", () => {
    for (const name of ["Captain Points", "Zoë", "José Ñ", "Nguyễn Văn A", "Ωμέγα", "山田太郎", "محمد", "🚀 Rocket", `e${COMBINING_ACUTE}${"\u0323"}x`]) {
      expect(parse(name)).toEqual({ ok: name });
    }
    // Vietnamese written decomposed (NFD): two marks on one letter.
    expect(parse("Nguyễn".normalize("NFD"))).toEqual({ ok: "Nguyễn".normalize("NFD") });
  });

  it.each(BIDI.map((c) => [c.toString(16)]))("refuses the bidirectional control U+%s", (hex) => {
    expect(parse(`abc${String.fromCodePoint(Number.parseInt(hex, 16))}def`).error).toBe(
      "must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C)",
    );
  });

  it.each(ZERO_WIDTH.map((c) => [c.toString(16)]))("refuses the zero-width character U+%s inside a name", (hex) => {
    expect(parse(`abc${String.fromCodePoint(Number.parseInt(hex, 16))}def`).error).toBe(
      "must not contain zero-width characters (U+200B-U+200D, U+2060, U+FEFF)",
    );
  });

  it("refuses line and paragraph separators inside a name", () => {
    for (const c of SEPARATORS) expect(parse(`abc${String.fromCodePoint(c)}def`).error).toBe("must not contain line or paragraph separators (U+2028, U+2029)");
  });

  it("refuses C0 and C1 control characters, tab and newline included", () => {
    for (const c of CONTROLS) expect(parse(`abc${String.fromCodePoint(c)}def`).error).toBe("must not contain control characters");
  });

  it("refuses the other invisible format characters (soft hyphen, invisible operators, interlinear annotations, tags) and lone surrogates", () => {
    for (const c of OTHER_FORMAT) expect(parse(`abc${String.fromCodePoint(c)}def`).error).toBe("must not contain invisible format characters");
    expect(parse("abc\uD800def").error).toBe("must not contain unpaired surrogates");
  });

  it("refuses 3 or more combining marks in a row, counted after NFC", () => {
    // x has no precomposed form with any of these, so all three stay marks.
    expect(parse(`Zalgx${"\u0300\u0301\u0302"}`).error).toBe("must not contain more than 2 combining marks in a row");
    expect(parse(`Z${"\u0336".repeat(40)}`).error).toBe("must not contain more than 2 combining marks in a row");
    // e + acute + dot below + circumflex: NFC composes it to ệ + acute... still two marks at most? No: ệ́ keeps one mark after composing two.
    expect(displayNameProblem(`e${"\u0323\u0302\u0301"}`)).toBeNull();
  });

  it("keeps the length and emptiness rules", () => {
    expect(parse("   ").error).toBe("must not be empty (use null to clear it)");
    expect(parse("x".repeat(DISPLAY_NAME_MAX_LENGTH))).toEqual({ ok: "x".repeat(64) });
    const tooLong = "must be at most 64 characters (UTF-16 units: most emoji count as 2 or more)";
    expect(parse("x".repeat(DISPLAY_NAME_MAX_LENGTH + 1)).error).toBe(tooLong);
    // Counted in UTF-16 units, as a form's maxlength counts them: 32 emoji fit, 33 (66 units) do not.
    expect(parse("😀".repeat(32))).toEqual({ ok: "😀".repeat(32) });
    expect(parse("😀".repeat(33)).error).toBe(tooLong);
  });

  it("never accepts a name that contains a refused character or more than 2 combining marks in a row", () => {
    // Combining marks of several scripts (Latin, Cyrillic, Hebrew, Devanagari, symbols), a few at a time.
    const mark = fc
      .oneof(
        ...[
          [0x300, 0x36f],
          [0x483, 0x489],
          [0x591, 0x5bd],
          [0x93c, 0x94d],
          [0x20d0, 0x20f0],
        ].map(([min, max]) => fc.integer({ min, max })),
      )
      .map((c) => String.fromCodePoint(c));
    const forbidden = fc.constantFrom(...FORBIDDEN.map((c) => String.fromCodePoint(c)));
    const piece = fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }) },
      { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
      { weight: 1, arbitrary: forbidden },
      { weight: 2, arbitrary: fc.array(mark, { minLength: 1, maxLength: 4 }).map((ms) => ms.join("")) },
    );
    const names = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(""));
    const forbiddenChar = new RegExp(`[${FORBIDDEN.map((c) => `\\u{${c.toString(16)}}`).join("")}]|\\p{Cc}|\\p{Cf}|\\p{Cs}`, "u");
    fc.assert(
      fc.property(names, (name) => {
        const result = displayNameSchema.safeParse(name);
        if (!result.success) return;
        expect(result.data).not.toMatch(forbiddenChar);
        expect(result.data.normalize("NFC")).not.toMatch(/\p{M}{3}/u);
      }),
      { numRuns: 2000 },
    );
  });

  it("reports a refused character as a custom zod issue of the whole name", () => {
    const result = displayNameSchema.safeParse("abc\u202edef");
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      {
        code: "custom",
        path: [],
        message: "must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C)",
      },
    ]);
  });
});
