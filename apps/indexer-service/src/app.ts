// The indexer CLI: parses `help`, `validate` and `run`, loads the config and returns an exit code.
import { BaseError } from "@pointwise/errors";
import { unwrapConfig } from "@pointwise/indexer-engine";
import { createLogger, type Logger } from "@pointwise/logger";
import { createRegistry } from "./adapters";
import { parseCommand, USAGE } from "./cli";
import { type ConfigSource, loadConfig } from "./config-source";
import { configFromEnv, loadRunEnv, startupLogLevel } from "./env";
import { runIndexer } from "./run";

/** The process around a CLI invocation: environment, output streams and the stop signal. */
export interface CliIo {
  env?: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  signal: AbortSignal;
  terminal?: NodeJS.WriteStream;
}

/**
 * Logs why a run stopped: an expected error as its message with its code and details, any other as `indexer failed`.
 * Either error, or the cause of an expected one, goes through the logger's err serializer, which drops the input the
 * URL parser keeps (a whole URL) and hides the credentials of URLs in its message, stack and causes.
 */
export function logError(logger: Logger, err: unknown): void {
  if (err instanceof BaseError) {
    // The line's `code` is the error's stable code; a code among the details (an API's answer) is kept beside it.
    const { code: detailCode, ...details } = err.details ?? {};
    logger.error(
      {
        ...details,
        code: err.code,
        ...(detailCode === undefined ? {} : { detail_code: detailCode }),
        ...(err.cause === undefined ? {} : { err: err.cause }),
      },
      err.message,
    );
  } else {
    logger.error({ err }, "indexer failed");
  }
}

/** Runs one CLI command and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const command = parseCommand(argv);
  if (command.name === "help") {
    io.stdout.write(USAGE);
    return 0;
  }
  if (command.name === "invalid") {
    io.stderr.write(`${command.message}\n\n${USAGE}`);
    return 2;
  }
  const registry = createRegistry();

  if (command.name === "validate") {
    const base64 = configFromEnv(io.env);
    const source: ConfigSource | undefined = command.file !== undefined ? { file: command.file } : base64 !== undefined ? { base64 } : undefined;
    if (source === undefined) {
      io.stderr.write("validate needs a config file or INDEXER_CONFIG\n");
      return 2;
    }
    const result = await loadConfig(source, registry);
    if (!result.ok) {
      io.stderr.write(`Invalid indexer config:\n${result.issues.map((i) => `  - ${i.message}\n`).join("")}`);
      return 1;
    }
    const { config } = result;
    io.stdout.write(
      `Config is valid: indexerId ${config.indexerId}, chain ${config.network.chainId}, adapter ${config.adapterConfig.adapterId}, ${config.sinkConfig.sinks.length} sink(s)\n`,
    );
    return 0;
  }

  // A bad LOG_LEVEL is reported at info by loadRunEnv below, with every other bad variable, not thrown here.
  let logger = createLogger({ service: "indexer-service", level: startupLogLevel(io.env), destination: io.stdout });
  try {
    const env = loadRunEnv(io.env, command.configFile);
    const source: ConfigSource =
      command.configFile !== undefined
        ? { file: command.configFile }
        : env.INDEXER_CONFIG !== undefined
          ? { base64: env.INDEXER_CONFIG }
          : { file: env.INDEXER_CONFIG_FILE as string };
    const config = unwrapConfig(await loadConfig(source, registry));
    // Rows printed by a stdout sink own stdout; logs move to stderr so both stay machine-readable.
    if (config.sinkConfig.sinks.some((s) => s.sinkType === "stdout"))
      logger = createLogger({ service: "indexer-service", level: env.LOG_LEVEL, destination: io.stderr });
    const result = await runIndexer({
      env,
      config,
      registry,
      logger,
      signal: io.signal,
      stdout: io.stdout,
      ...(io.terminal === undefined ? {} : { terminal: io.terminal }),
    });
    logger.info({ ...result }, "indexer exiting");
    return 0;
  } catch (err) {
    // Stopping while earn events wait for a retry is still a clean stop: the checkpoint is committed and the
    // unsent chunk is resent with the same Idempotency-Key on restart.
    if (io.signal.aborted && err instanceof BaseError && err.code === "pointwise-api-interrupted") {
      logger.info({ code: err.code }, "Indexer stopped while earn events were pending");
      return 0;
    }
    logError(logger, err);
    return 1;
  }
}
