// Test support for the indexer: compiles the test contracts with solc-js, caching the output between runs.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** ABI and deployment bytecode of a compiled contract. */
export interface CompiledContract {
  abi: unknown[];
  bytecode: string;
}

const SOURCES = join(__dirname, "..", "contracts");
const CACHE = join(__dirname, "..", ".cache");

/**
 * Compiles the test contracts with solc-js. The output is cached under test/.cache keyed by a hash of the
 * sources and the compiler version, so reruns skip the (slow) compiler.
 */
export async function compileContracts(): Promise<Record<string, CompiledContract>> {
  const files = (await readdir(SOURCES)).filter((f) => f.endsWith(".sol")).sort();
  const sources: Record<string, { content: string }> = {};
  for (const file of files) sources[file] = { content: await readFile(join(SOURCES, file), "utf8") };
  // solc is loaded lazily: requiring it costs a second even on a cache hit.
  const solcVersion = (require("solc/package.json") as { version: string }).version;
  // Imported library sources (OpenZeppelin) are part of what is compiled, so their version is part of the key.
  const ozVersion = (require("@openzeppelin/contracts/package.json") as { version: string }).version;
  const hash = createHash("sha256").update(JSON.stringify({ solcVersion, ozVersion, sources })).digest("hex").slice(0, 16);
  const cached = join(CACHE, `contracts-${hash}.json`);
  try {
    return JSON.parse(await readFile(cached, "utf8")) as Record<string, CompiledContract>;
  } catch {
    // Not compiled yet.
  }
  const solc = require("solc") as { compile(input: string, callbacks?: { import(path: string): { contents: string } | { error: string } }): string };
  const input = {
    language: "Solidity",
    sources,
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readPackageSource })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const compiled: Record<string, CompiledContract> = {};
  for (const contracts of Object.values(output.contracts)) {
    for (const [name, c] of Object.entries(contracts)) compiled[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  }
  await mkdir(CACHE, { recursive: true });
  await writeFile(cached, JSON.stringify(compiled));
  return compiled;
}

/** Resolves a Solidity import of an npm package (`@openzeppelin/contracts/...`) to the installed file's source. */
function readPackageSource(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(path), "utf8") };
  } catch {
    return { error: `import not found: ${path}` };
  }
}
