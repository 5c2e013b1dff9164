// The baseline server: bare express that parses the same JSON body (or returns fixed bytes) and
// answers. Started as its own process so it is measured the way the real apps are.
import { readFileSync } from "node:fs";
import express from "express";

const mode = process.argv[2] ?? "json-echo";
const app = express();
app.disable("x-powered-by");
const fixed = mode === "fixed" ? readFileSync(process.argv[3] as string) : null;

if (fixed) {
  app.get(/.*/, (_req, res) => {
    res.type("application/json").send(fixed);
  });
} else {
  app.post(/.*/, express.json({ limit: "2mb" }), (req, res) => {
    res.json({ data: { ok: typeof req.body === "object" } });
  });
}

const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`ready ${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
