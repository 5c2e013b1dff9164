// Bundles an app's src/main.ts into dist/main.js with esbuild. Workspace packages (@pointwise/*,
// which point at TypeScript sources) are always bundled in. Third-party packages stay external and
// load from node_modules, so native or wasm assets (Prisma's query compiler) keep working, unless the
// app builds with `--bundle-dependencies`: then they are bundled too (see below).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const cwd = process.cwd();
const pkg = JSON.parse(await readFile(path.join(cwd, "package.json"), "utf8"));
const args = process.argv.slice(2);
// For an app with no native or wasm assets (the indexer): one file to read and compile at start instead of the
// thousands of files its packages spread over (redis, ethers, zod, pino...), whose loading was most of the CPU a
// short run spends before its first request. Whitespace and syntax are minified to cut the bytes V8 parses;
// identifiers keep their names, so stack traces and CPU profiles stay readable without the source map.
const bundleDependencies = args.includes("--bundle-dependencies");
// `--lazy src/x.ts`: a module the app imports only with `await import("./x")` on a path most runs never take. It
// becomes its own bundle, dist/x.js, loaded when imported, so its packages (the indexer's metrics server brings an
// HTTP framework, half of the bundle) are not compiled at every start.
const lazy = args.flatMap((a, i) => (args[i - 1] === "--lazy" ? [path.resolve(cwd, a)] : []));

const externalThirdParty = {
  name: "external-third-party",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@pointwise/") || args.path.startsWith("node:")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Leaves every `require.resolve(...)` to Node at run time: it asks for a file's path on disk (a package's shipped
 * Solidity source, say), which a module copied into the bundle does not have.
 */
const resolveAtRunTime = {
  name: "require-resolve-at-run-time",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => (args.kind === "require-resolve" ? { path: args.path, external: true } : undefined));
  },
};

/** Leaves each lazy module out of the bundle that imports it: the import loads dist/<name>.js at run time. */
const lazyModules = {
  name: "lazy-modules",
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      const target = lazy.find((file) => file.replace(/\.ts$/, "") === path.resolve(args.resolveDir, args.path).replace(/\.ts$/, ""));
      return target === undefined ? undefined : { path: `./${path.basename(target, ".ts")}.js`, external: true };
    });
  },
};

const options = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: true,
  logLevel: "warning",
  ...(bundleDependencies ? { minifyWhitespace: true, minifySyntax: true } : {}),
};
const plugins = bundleDependencies ? [resolveAtRunTime] : [resolveAtRunTime, externalThirdParty];
await build({ ...options, entryPoints: [path.join(cwd, "src", "main.ts")], outfile: path.join(cwd, "dist", "main.js"), plugins: [lazyModules, ...plugins] });
for (const file of lazy) await build({ ...options, entryPoints: [file], outfile: path.join(cwd, "dist", `${path.basename(file, ".ts")}.js`), plugins });
console.log(
  `built ${pkg.name} -> dist/main.js${lazy.map((f) => `, dist/${path.basename(f, ".ts")}.js`).join("")}${bundleDependencies ? " (dependencies bundled)" : ""}`,
);
