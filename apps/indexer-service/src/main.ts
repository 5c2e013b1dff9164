// indexer-service process entry: runs the CLI, turning SIGTERM/SIGINT into a clean stop at a checkpoint.
import { runCli } from "./app";

/** Process entry: SIGTERM/SIGINT ask the indexer to finish its block range, commit and exit 0. */
async function main(): Promise<void> {
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.once("SIGTERM", stop);
  process.on("SIGINT", stop);
  const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, signal: controller.signal, terminal: process.stderr });
  process.exitCode = code;
}

void main();
