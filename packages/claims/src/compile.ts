// Compiles Solidity with solc-js: npm-package imports (@openzeppelin/...) resolved from node_modules, output cached by input hash.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BaseError } from "@pointwise/errors";

/** ABI and deployment bytecode of one compiled contract. */
export interface CompiledContract {
  abi: unknown[];
  bytecode: string;
}

/** What to compile: source files by name (the name other sources import them by) and compiler settings. */
export interface CompileInput {
  sources: Record<string, string>;
  /** EVM version to target; "cancun" runs on mainnet and the common L2s (default). */
  evmVersion?: string;
  /** Optimizer runs; 200 unless set. */
  optimizerRuns?: number;
  /** Folder of the on-disk cache; the system temp folder unless set. `null` disables it. */
  cacheDir?: string | null;
}

/** Solidity that does not compile; `details.errors` holds the compiler's messages. */
export class SolidityCompileError extends BaseError {
  constructor(messages: string[]) {
    super("solidity-compile-failed", `Solidity compilation failed:\n${messages.join("\n")}`, { details: { errors: messages } });
  }
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

interface Solc {
  version(): string;
  compile(input: string, callbacks: { import(path: string): { contents: string } | { error: string } }): string;
}

const memo = new Map<string, Record<string, CompiledContract>>();

/**
 * Compiles `sources` and returns every contract by name. The result is kept in memory and on disk under a key
 * hashing the sources, the settings, the solc version and the version of every npm package the sources import,
 * so a rerun skips the compiler (which takes seconds).
 */
export function compileSolidity(input: CompileInput): Record<string, CompiledContract> {
  const settings = {
    optimizer: { enabled: true, runs: input.optimizerRuns ?? 200 },
    evmVersion: input.evmVersion ?? "cancun",
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
  };
  const key = cacheKey(input.sources, settings);
  const hit = memo.get(key);
  if (hit) return hit;
  const cacheDir = input.cacheDir === undefined ? path.join(os.tmpdir(), "pointwise-solc") : input.cacheDir;
  const file = cacheDir === null ? null : path.join(cacheDir, `${key}.json`);
  if (file) {
    const cached = readCache(file);
    if (cached) {
      memo.set(key, cached);
      return cached;
    }
  }
  // solc is loaded on a cache miss only: loading its compiler costs about a second.
  const solc = require("solc") as Solc;
  const sources = Object.fromEntries(Object.entries(input.sources).map(([name, content]) => [name, { content }]));
  const output = JSON.parse(solc.compile(JSON.stringify({ language: "Solidity", sources, settings }), { import: readImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error").map((e) => e.formattedMessage);
  if (errors.length > 0) throw new SolidityCompileError(errors);
  const compiled: Record<string, CompiledContract> = {};
  for (const contracts of Object.values(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) compiled[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  }
  memo.set(key, compiled);
  if (file) writeCache(file, compiled);
  return compiled;
}

/** Resolves an import the sources do not define (`@openzeppelin/contracts/...`) to the installed package file. */
function readImport(importPath: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(importPath), "utf8") };
  } catch {
    return { error: `import not found in node_modules: ${importPath}` };
  }
}

/** The npm packages the sources import (`@scope/name` or `name`), with their installed versions. */
function importedPackages(sources: Record<string, string>): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const content of Object.values(sources)) {
    for (const match of content.matchAll(/import\s[^;]*?["']([^"'.][^"']*)["']/g)) {
      const spec = match[1] ?? "";
      const parts = spec.split("/");
      const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? "");
      if (name in versions || name in sources || spec in sources) continue;
      try {
        versions[name] = (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;
      } catch {
        versions[name] = "unresolved";
      }
    }
  }
  return versions;
}

function cacheKey(sources: Record<string, string>, settings: object): string {
  const solcVersion = (require("solc/package.json") as { version: string }).version;
  const sorted = Object.keys(sources)
    .sort()
    .map((name) => [name, sources[name]]);
  return createHash("sha256")
    .update(JSON.stringify({ solcVersion, settings, sources: sorted, packages: importedPackages(sources) }))
    .digest("hex")
    .slice(0, 32);
}

function readCache(file: string): Record<string, CompiledContract> | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, CompiledContract>;
  } catch {
    return undefined; // not compiled yet, or a damaged file that the next write replaces
  }
}

function writeCache(file: string, compiled: Record<string, CompiledContract>): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // Written under a unique name then renamed, so a concurrent reader never sees half a file.
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, JSON.stringify(compiled));
    renameSync(tmp, file);
  } catch {
    // A read-only or full disk only costs the next run a compile.
  }
}
