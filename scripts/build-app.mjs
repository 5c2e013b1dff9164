// Bundles an app's src/main.ts into dist/main.js with esbuild. Workspace packages (@pointwise/*,
// which point at TypeScript sources) are always bundled in. Third-party packages stay external and
// load from node_modules, so native or wasm assets (Prisma's query compiler) keep working, unless the
// app builds with `--bundle-dependencies`: then they are bundled too (see below).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const cwd = process.cwd();
const pkg = JSON.parse(await readFile(path.join(cwd, "package.json"), "utf8"));
// For an app with no native or wasm assets (the indexer): one file to read and compile at start instead of the
// thousands of files its packages spread over (redis, ethers, zod, pino...), whose loading was most of the CPU a
// short run spends before its first request. Whitespace and syntax are minified to cut the bytes V8 parses;
// identifiers keep their names, so stack traces and CPU profiles stay readable without the source map.
const bundleDependencies = process.argv.includes("--bundle-dependencies");

const externalThirdParty = {
  name: "external-third-party",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@pointwise/") || args.path.startsWith("node:")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: [path.join(cwd, "src", "main.ts")],
  outfile: path.join(cwd, "dist", "main.js"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: true,
  logLevel: "warning",
  ...(bundleDependencies ? { minifyWhitespace: true, minifySyntax: true } : { plugins: [externalThirdParty] }),
});
console.log(`built ${pkg.name} -> dist/main.js${bundleDependencies ? " (dependencies bundled)" : ""}`);
