// Reading the bad-word list file: its words in comparison form, and a file that cannot be used stopping the start.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadBadWords } from "./bad-words";

describe("loadBadWords", () => {
  it("reads one word per line in the form names are compared in, leaving out comments and blank lines", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "bad-words-")), "words.txt");
    writeFileSync(file, "# house list\nSCAM\n\n  Ａｄｍｉｎ  \nscam\n");
    expect(loadBadWords(file)).toEqual(["scam", "admin"]);
  });

  it("refuses a file it cannot read or one that lists no words, naming the variable", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bad-words-"));
    const missing = path.join(dir, "missing.txt");
    expect(() => loadBadWords(missing)).toThrow(`BAD_WORDS_FILE: cannot read ${missing}`);
    const empty = path.join(dir, "empty.txt");
    writeFileSync(empty, "# only a comment\n\n");
    expect(() => loadBadWords(empty)).toThrow(`BAD_WORDS_FILE: ${empty} lists no words`);
  });
});
