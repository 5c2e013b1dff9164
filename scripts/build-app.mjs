// Bundles an app's src/main.ts into dist/main.js with esbuild. Workspace packages (@pointwise/*,
// which point at TypeScript sources) are bundled in; third-party packages stay external and load
// from node_modules, so native or wasm assets (Prisma's query compiler) keep working.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const cwd = process.cwd();
const pkg = JSON.parse(await readFile(path.join(cwd, "package.json"), "utf8"));

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
  plugins: [externalThirdParty],
});
console.log(`built ${pkg.name} -> dist/main.js`);
