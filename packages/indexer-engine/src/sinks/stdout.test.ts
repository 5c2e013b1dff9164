// The stdout sink: JSON or key=value lines, printed only once their batch's checkpoint commits.
import { PassThrough } from "node:stream";
import { ROW_COLUMNS } from "../rows";
import { row } from "../testing/fixtures";
import { jsonLine, StdoutSink, textLine } from "./stdout";

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

  it("prints nothing when committing with nothing pending: before any write, after a restart, or a second time", async () => {
    const writes: string[] = [];
    const out = { write: (text: string) => writes.push(text) > 0 } as unknown as NodeJS.WritableStream;
    const sink = new StdoutSink("0-stdout", false, out);
    await sink.committed();
    await sink.write([row({ id: "dropped" })]);
    await sink.recover();
    await sink.committed();
    expect(writes).toEqual([]);
    expect(await sink.write([row({ id: "x", meta: null }), row({ id: "y", meta: null })])).toBeUndefined();
    await sink.committed();
    await sink.committed();
    await expect(sink.close()).resolves.toBeUndefined();
    expect(writes).toHaveLength(1);
    expect(writes[0]?.split("\n").map((l) => l.split(" ")[1])).toEqual(["id=x", "id=y", undefined]);
  });

  it("prints to the process's stdout when given no stream", async () => {
    const printed: string[] = [];
    jest.spyOn(process.stdout, "write").mockImplementation((text) => printed.push(String(text)) > 0);
    try {
      const sink = new StdoutSink("0-stdout", true, undefined);
      await sink.write([row({ id: "p" })]);
      await sink.committed();
    } finally {
      jest.restoreAllMocks();
    }
    expect(printed.map((t) => (JSON.parse(t) as { id: string }).id)).toEqual(["p"]);
  });
});

describe("stdout lines", () => {
  const r = row({ id: "a", priceable: false, logIndex: 0 });

  it("writes a text line as the row type, then column=value for each column that is not null", () => {
    expect(textLine(r)).toBe(
      "action id=a indexerId=idx chainId=1 adapterId=amm-v2 adapterVersion=0.0.1 user=0x00000000000000000000000000000000000000aa " +
        "asset=0x00000000000000000000000000000000000000bb activity=swap amount=1 priceable=false ts=1700000000000 height=10 " +
        "txHash=0xabc logIndex=0 priceUsd=2 valueUsd=2\n",
    );
  });

  it("writes a JSON line with every column, nulls included, in column order", () => {
    expect(jsonLine(r)).toBe(
      '{"rowType":"action","id":"a","indexerId":"idx","chainId":1,"adapterId":"amm-v2","adapterVersion":"0.0.1",' +
        '"user":"0x00000000000000000000000000000000000000aa","asset":"0x00000000000000000000000000000000000000bb","activity":"swap",' +
        '"amount":"1","priceable":false,"active":null,"startTs":null,"endTs":null,"durationMs":null,"startBlock":null,"endBlock":null,' +
        '"ts":1700000000000,"height":10,"txHash":"0xabc","logIndex":0,"trigger":null,"priceUsd":"2","valueUsd":"2","usdHours":null,"meta":null}\n',
    );
  });
});
