// Escaping values for PostgreSQL's COPY text format so no value can end its field or row.
import { copyField, copyRow } from "./copy-text";

describe("COPY text format", () => {
  it("writes NULL as \\N and plain values unchanged", () => {
    expect(copyField(null)).toBe("\\N");
    expect(copyField("0b2f6c1e-6f1a-4a57-9b8e-3f4c2d1a0e9f")).toBe("0b2f6c1e-6f1a-4a57-9b8e-3f4c2d1a0e9f");
    expect(copyField(12)).toBe("12");
  });

  it("escapes backslash, tab, newline and carriage return so a value can never end its field or row", () => {
    expect(copyField('{"note":"a\\"b"}')).toBe('{"note":"a\\\\"b"}');
    expect(copyField("a\tb\nc\rd")).toBe("a\\tb\\nc\\rd");
    expect(copyField("\\N")).toBe("\\\\N");
  });

  it("joins fields with tabs and ends the row with a newline", () => {
    expect(copyRow(["a", null, "c\td"])).toBe("a\t\\N\tc\\td\n");
  });
});
