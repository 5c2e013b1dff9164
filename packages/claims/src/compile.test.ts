// solc-js compilation: compiler errors as typed errors, npm imports resolved from node_modules, the on-disk cache keyed by the input.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { compileSolidity, SolidityCompileError } from "./compile";

const TINY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Tiny { function answer() external pure returns (uint256) { return 42; } }
`;

let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(path.join(os.tmpdir(), "pointwise-solc-test-"));
});
afterEach(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

describe("compileSolidity", () => {
  it("returns the ABI and bytecode of every contract and writes one cache file", () => {
    const { Tiny } = compileSolidity({ sources: { "Tiny.sol": TINY }, cacheDir });
    expect(Tiny?.abi).toEqual([
      { inputs: [], name: "answer", outputs: [{ internalType: "uint256", name: "", type: "uint256" }], stateMutability: "pure", type: "function" },
    ]);
    expect(Tiny?.bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith(".json"))).toHaveLength(1);
  });

  it("reads a later run's result from the disk cache, and compiles again when the source changes", () => {
    // A source of its own: the in-memory cache of this module must not answer for it.
    const source = `${TINY}// disk cache test\n`;
    compileSolidity({ sources: { "Tiny.sol": source }, cacheDir });
    const [file] = readdirSync(cacheDir);
    const cached = path.join(cacheDir, file as string);
    // A marker in the cached file shows that a fresh process (a fresh module) reads it instead of compiling.
    writeFileSync(cached, JSON.stringify({ Tiny: { abi: ["from-cache"], bytecode: "0x00" } }));
    jest.isolateModules(() => {
      const fresh = require("./compile") as typeof import("./compile");
      expect(fresh.compileSolidity({ sources: { "Tiny.sol": source }, cacheDir }).Tiny?.abi).toEqual(["from-cache"]);
      const changed = fresh.compileSolidity({ sources: { "Tiny.sol": source.replace("42", "43") }, cacheDir });
      expect(changed.Tiny?.abi).not.toEqual(["from-cache"]);
    });
    expect(readdirSync(cacheDir).filter((f) => f.endsWith(".json"))).toHaveLength(2);
    expect(JSON.parse(readFileSync(cached, "utf8")).Tiny.abi).toEqual(["from-cache"]);
  });

  it("resolves @openzeppelin imports from node_modules", () => {
    const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
contract Owned is Ownable { constructor() Ownable(msg.sender) {} }
`;
    const { Owned } = compileSolidity({ sources: { "Owned.sol": source }, cacheDir: null });
    expect(((Owned?.abi ?? []) as { name?: string }[]).map((f) => f.name)).toEqual(
      expect.arrayContaining(["owner", "transferOwnership", "OwnershipTransferred"]),
    );
  });

  it("throws solidity-compile-failed with the compiler's message", () => {
    const broken = TINY.replace("return 42;", "return nope;");
    expect(() => compileSolidity({ sources: { "Broken.sol": broken }, cacheDir })).toThrow(SolidityCompileError);
    try {
      compileSolidity({ sources: { "Broken.sol": broken }, cacheDir });
    } catch (err) {
      expect((err as SolidityCompileError).code).toBe("solidity-compile-failed");
      expect((err as Error).message).toContain("Undeclared identifier");
    }
    expect(readdirSync(cacheDir)).toHaveLength(0);
  });

  it("names an import that is not installed", () => {
    const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {Nothing} from "@nowhere/contracts/Nothing.sol";
contract UsesNothing {}
`;
    expect(() => compileSolidity({ sources: { "UsesNothing.sol": source }, cacheDir })).toThrow(
      "import not found in node_modules: @nowhere/contracts/Nothing.sol",
    );
  });
});
