import { defineConfig } from "vite";

// The dashboard is a plain React app compiled by Vite's built-in TSX transform; admin-api serves web/dist.
export default defineConfig({
  base: "/",
  oxc: { jsx: { runtime: "automatic" } },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1000 },
  server: { proxy: { "/api": "http://127.0.0.1:4003" } },
});
