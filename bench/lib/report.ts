// Helpers for writing the benchmark's report: how a figure is printed and how a generated section
// of docs/performance.md is replaced.

/** A figure as the report prints it: whole numbers with separators from 100 up, three significant digits below. */
export function formatNumber(n: number | undefined | null): string {
  if (n === undefined || n === null) return "";
  return Math.abs(n) >= 100 ? Math.round(n).toLocaleString("en") : Number(n.toPrecision(3)).toString();
}

/** Whether the document has both markers of the named generated section. */
export function hasSection(doc: string, name: string): boolean {
  const i = doc.indexOf(`<!-- bench:${name}:start -->`);
  return i >= 0 && doc.indexOf(`<!-- bench:${name}:end -->`) > i;
}

/** Replaces what stands between `<!-- bench:NAME:start -->` and its end marker; the document unchanged when they are missing. */
export function replaceSection(doc: string, name: string, body: string): string {
  if (!hasSection(doc, name)) return doc;
  const start = `<!-- bench:${name}:start -->`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(`<!-- bench:${name}:end -->`);
  return `${doc.slice(0, i + start.length)}\n${body}\n${doc.slice(j)}`;
}
