// The stdout sink: JSON or key=value lines, printed only once their batch's checkpoint commits.
import { PassThrough } from "node:stream";
import { ROW_COLUMNS } from "../rows";
import { row } from "../testing/fixtures";
import { StdoutSink } from "./stdout";

function capture() {
  const out = new PassThrough();
  let text = "";
  out.on("data", (d: Buffer) => {
    text += d.toString();
  });
  return { out, text: () => text };
}

describe("stdout sink", () => {
  it("prints JSON lines in column order, only after the checkpoint commits", async () => {
    const { out, text } = capture();
    const sink = new StdoutSink("0-stdout", true, out);
    await sink.recover();
    await sink.write([row({ id: "a" }), row({ id: "b" })]);
    expect(text()).toBe("");
    await sink.committed();
    const lines = text()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.id)).toEqual(["a", "b"]);
    expect(Object.keys(lines[0] ?? {})).toEqual([...ROW_COLUMNS]);
  });

  it("prints readable key=value lines without json, and drops a batch that never committed", async () => {
    const { out, text } = capture();
    const sink = new StdoutSink("0-stdout", false, out);
    await sink.write([row({ id: "lost" })]);
    await sink.recover();
    await sink.write([row({ id: "shown", meta: null })]);
    await sink.committed();
    expect(text()).toMatch(/^action id=shown indexerId=idx chainId=1 adapterId=amm-v2 adapterVersion=0\.0\.1 user=0x0+aa /);
    expect(text()).not.toContain("lost");
    expect(text()).not.toContain("meta=");
  });
});
