// README.md and docs/: every relative link leads to a file that exists and, with a #fragment, to a heading in it;
// every table is whole (a blank line or a paragraph inside one turns the rows after it into plain text).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "@pointwise/testkit";

/** GitHub's anchor of a heading: lowercase, punctuation dropped (not `-` or `_`), spaces as `-`; repeats get `-1`, `-2`. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = (heading[1] as string).replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const docs = [
  "README.md",
  ...readdirSync(path.join(repoRoot, "docs"), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".md"))
    .map((f) => path.join("docs", f)),
];

describe("tables in README.md and docs/", () => {
  it.each(docs)("%s: every run of table rows starts with a header and its separator row", (file) => {
    const lines = readFileSync(path.join(repoRoot, file), "utf8")
      // Code blocks go, their lines kept as blank ones so line numbers stay true.
      .replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ""))
      .split("\n");
    const broken: string[] = [];
    lines.forEach((line, i) => {
      const row = line.startsWith("|");
      const starts = row && !(lines[i - 1] ?? "").startsWith("|");
      if (starts && !/^\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(lines[i + 1] ?? "")) broken.push(`line ${i + 1}: ${line.slice(0, 60)}`);
    });
    expect(broken).toEqual([]);
  });
});

describe("links in README.md and docs/", () => {
  it.each(docs)("%s links to files and headings that exist", (file) => {
    const text = readFileSync(path.join(repoRoot, file), "utf8").replace(/```[\s\S]*?```/g, "");
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z]+:/i.test(target as string)) continue;
      const [where, fragment] = (target as string).split("#") as [string, string | undefined];
      const resolved = where === "" ? path.join(repoRoot, file) : path.resolve(path.dirname(path.join(repoRoot, file)), where);
      if (!existsSync(resolved)) broken.push(`${target}: no file`);
      else if (fragment !== undefined && resolved.endsWith(".md") && !anchors(readFileSync(resolved, "utf8")).has(fragment.toLowerCase()))
        broken.push(`${target}: no heading`);
    }
    expect(broken).toEqual([]);
  });
});
