import { formatNumber, hasSection, replaceSection } from "./report";

describe("formatNumber", () => {
  it("prints whole numbers with separators from 100 up and three significant digits below, nothing for a missing figure", () => {
    expect(formatNumber(62_600.4)).toBe("62,600");
    expect(formatNumber(0.050812)).toBe("0.0508");
    expect(formatNumber(12.536)).toBe("12.5");
    expect(formatNumber(undefined)).toBe("");
  });
});

describe("replaceSection", () => {
  it("replaces only what stands between the named markers", () => {
    const doc = "a\n<!-- bench:x:start -->\nold\n<!-- bench:x:end -->\nb\n<!-- bench:y:start -->\nkeep\n<!-- bench:y:end -->\n";
    expect(replaceSection(doc, "x", "new")).toBe(
      "a\n<!-- bench:x:start -->\nnew\n<!-- bench:x:end -->\nb\n<!-- bench:y:start -->\nkeep\n<!-- bench:y:end -->\n",
    );
  });

  it("leaves a document without both markers unchanged, and hasSection says which sections are there", () => {
    expect(replaceSection("no markers", "x", "new")).toBe("no markers");
    const endFirst = "<!-- bench:x:end -->\n<!-- bench:x:start -->";
    expect(replaceSection(endFirst, "x", "new")).toBe(endFirst);
    expect(hasSection("<!-- bench:x:start -->\n<!-- bench:x:end -->", "x")).toBe(true);
    expect(hasSection(endFirst, "x")).toBe(false);
  });
});
