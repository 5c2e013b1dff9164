// The supported chains: the table in docs/indexer-config.md is the user's reference, so it must equal CHAINS row for row.
import { readFileSync } from "node:fs";
import path from "node:path";
import { messages } from "../testing/config";
import { CHAINS, type ChainInfo, findChain } from "./chains";

const DOC = path.resolve(__dirname, "../../../../docs/indexer-config.md");
const HEADER = /^\|\s*Chain id\s*\|\s*Name\s*\|\s*Testnet\s*\|$/;

/** The rows of the documented chain table, read strictly: a malformed row fails the test instead of being skipped. */
function documentedChains(): ChainInfo[] {
  const lines = readFileSync(DOC, "utf8").split("\n");
  const header = lines.findIndex((line) => HEADER.test(line.trim()));
  if (header < 0) throw new Error(`${DOC} has no "| Chain id | Name | Testnet |" table`);
  const rows: ChainInfo[] = [];
  // The line after the header is the |---| separator.
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    const [id, name, testnet] = cells;
    if (cells.length !== 3 || !/^\d+$/.test(id ?? "") || name === undefined || name === "" || (testnet !== "yes" && testnet !== "no"))
      throw new Error(`malformed chain row: ${line}`);
    rows.push({ id: Number(id), name, testnet: testnet === "yes" });
  }
  return rows;
}

describe("supported chains", () => {
  it("are exactly the chains documented in docs/indexer-config.md, in the same order", () => {
    expect(documentedChains()).toEqual(CHAINS);
  });

  it("name each chain id once", () => {
    expect(new Set(CHAINS.map((chain) => chain.id)).size).toBe(CHAINS.length);
  });

  it("find a listed chain by id", () => {
    expect(findChain(8453)).toEqual({ id: 8453, name: "Base", testnet: false });
    expect(findChain(11155111)).toEqual({ id: 11155111, name: "Sepolia", testnet: true });
  });

  it("find nothing for an unlisted id (Goerli, retired)", () => {
    expect(findChain(5)).toBeUndefined();
  });

  it("are listed by id, in the documented order, when a config names another chain", () => {
    const ids = documentedChains().map((chain) => chain.id);
    expect(messages((c) => (c.network.chainId = 5))).toEqual([`network.chainId must be a supported chain id (got 5); supported: ${ids.join(", ")}`]);
  });
});
