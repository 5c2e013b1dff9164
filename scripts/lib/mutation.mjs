// The Stryker settings every package's stryker.config.mjs shares: jest runner, per-test coverage, two workers.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Where `npm run mutate` writes its reports (gitignored): reports/mutation/<package>/index.html and mutation.json. */
export const reportsDir = path.join(root, "reports", "mutation");

/**
 * A Stryker configuration for the package in `packageDir`: `name` names its report folder, `mutate`
 * lists the files it mutates, `testMatch` (optional) the jest tests it runs when the package's other
 * tests need services that a mutation run does not start. `ignoreStatic` leaves out mutants in code
 * that runs once when a module loads (tables built at start), which every test would have to run
 * again and which no test can miss anyway.
 */
export function mutationConfig({ packageDir, name, mutate, testMatch, ignoreStatic = false }) {
  const dir = path.join(reportsDir, name);
  // A package's jest.config.js requires the preset by a relative path ("../../jest.preset.js"), so
  // the sandbox Stryker copies the package into must sit as deep below the root as the package does.
  const depth = path.relative(root, packageDir).split(path.sep).length;
  const tempDir = path.join(root, ".stryker-tmp", ...Array.from({ length: depth - 2 }, () => name));
  return {
    packageManager: "npm",
    testRunner: "jest",
    jest: {
      projectType: "custom",
      configFile: "jest.config.js",
      enableFindRelatedTests: true,
      config: {
        setupFiles: [path.join(root, "scripts", "lib", "mutation-jest-setup.cjs")],
        ...(testMatch ? { testMatch: testMatch.map((p) => `<rootDir>/${p}`) } : {}),
      },
    },
    coverageAnalysis: "perTest",
    // The machine's two cores are shared; more workers only queue.
    concurrency: 2,
    // A mutant counts as detected (a timeout, which Stryker's score counts as killed) when its tests run
    // past 3x their own time in the run without mutants, plus that run's jest overhead, plus 30 s. A
    // surviving mutant must not be passed off as a timeout: the rules package's tests load every test
    // file again for each mutant, and on a machine busy with other runs that alone can pass 3x the dry
    // run's time plus 10 s, so a mutant that changes nothing would count as killed. A mutant that loops
    // forever still stops, each costing about 30 s. Scores of record come from a run with nothing else
    // busy on the machine.
    timeoutMS: 30000,
    timeoutFactor: 3,
    mutate,
    ignoreStatic,
    reporters: ["clear-text", "progress", "html", "json"],
    clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
    htmlReporter: { fileName: path.join(dir, "index.html") },
    jsonReporter: { fileName: path.join(dir, "mutation.json") },
    tempDirName: path.relative(packageDir, tempDir),
    cleanTempDir: true,
    thresholds: { high: 95, low: 90, break: null },
  };
}
