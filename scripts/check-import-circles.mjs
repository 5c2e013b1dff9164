// `npm run lint` and `npm test`: fails, naming the files, when any TypeScript module of apps/, packages/,
// e2e/ or bench/ (tests and the dashboard included) imports itself through others, or when workspace
// packages depend on each other in a circle through their non-test code. Uses dpdm's parser.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { groupDependencyTreeByPackage, parseCircular, parseDependencyTree } from "dpdm";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entries = ["apps", "packages", "e2e", "bench"].map((dir) => `${dir}/**/*.{ts,tsx,mts,cts}`);
const isTest = (file) => /\.test\.tsx?$|(^|\/)(test|e2e|bench)\//.test(file);

// Type-only imports count (transform: false): a type import circle still ties two files together,
// and the dashboard's one was exactly that. dpdm resolves workspace packages through node_modules'
// symlinks to their real files, so an import of `@pointwise/x` is an edge into packages/x.
const tree = await parseDependencyTree(entries, {
  cwd: root,
  context: root,
  transform: false,
  skipDynamicImports: false,
  exclude: /node_modules|\/dist\/|\/generated\//,
});

const fileCircles = parseCircular(tree);

// Package level: only edges between files of this repository (builtins such as `node:fs` are not
// files and dpdm would otherwise count them as the root package), and only from non-test files, because a
// package's tests may use @pointwise/testkit, which itself builds on that package.
const internal = {};
for (const [file, deps] of Object.entries(tree)) {
  if (deps === null || isTest(file)) continue;
  internal[file] = deps.filter((d) => d.id !== null && !d.id.startsWith("node:") && !isTest(d.id) && d.id in tree);
}
const packageCircles = parseCircular(groupDependencyTreeByPackage(internal, root));

const show = (circle) => `  ${[...circle, circle[0]].join("\n    -> ")}`;
if (fileCircles.length > 0 || packageCircles.length > 0) {
  if (fileCircles.length > 0) process.stderr.write(`Import circles between files (${fileCircles.length}):\n${fileCircles.map(show).join("\n")}\n`);
  if (packageCircles.length > 0)
    process.stderr.write(`Dependency circles between packages (${packageCircles.length}):\n${packageCircles.map(show).join("\n")}\n`);
  process.stderr.write("Move what both sides need into a module of its own, which both import.\n");
  process.exit(1);
}
const checked = Object.entries(tree).filter(([file, deps]) => deps !== null && /\.[cm]?tsx?$/.test(file)).length;
process.stdout.write(`No import circles among ${checked} TypeScript files.\n`);
