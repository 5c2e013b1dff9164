// A minimal service run under runService, for lifecycle.test.ts to start as a real process and signal.
import { subscribe } from "node:diagnostics_channel";
import type { Socket } from "node:net";
import { ConfigError } from "@pointwise/errors";
import { createLogger } from "@pointwise/logger";
import { jsonBody } from "./body";
import { createHttpApp, finishHttpApp } from "./http";
import { runService } from "./lifecycle";
import { openStartup } from "./startup";

const logger = createLogger({ service: "fixture" });
const mode = process.argv[2];

// Every read of a connection is logged with its running byte count, so a test can send half a request and know the
// server has it before it signals, instead of waiting a while and hoping.
subscribe("net.server.socket", (message) => {
  const { socket } = message as { socket: Socket };
  socket.on("data", () => logger.info({ bytes: socket.bytesRead }, "fixture read"));
});

void runService("fixture", logger, async () => {
  if (mode === "config-error") throw new ConfigError("Invalid environment: PORT must be a number; REDIS_URL is required");
  if (mode === "crash") throw new Error("something unexpected");
  const startup = await openStartup({ name: "fixture", logger, port: Number(process.argv[3]), host: "127.0.0.1", timeoutMs: 1000 });
  const app = createHttpApp({ logger, readiness: [] });
  app.post("/echo", jsonBody({ limit: "1kb" }), (req, res) => {
    res.json(req.body);
  });
  startup.serve(finishHttpApp(app, logger));
  logger.info("fixture listening");
  return { stop: () => startup.close() };
});
