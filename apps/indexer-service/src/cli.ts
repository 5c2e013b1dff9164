/** A parsed command line. */
export type Command = { name: "run"; configFile?: string } | { name: "validate"; file?: string } | { name: "help" } | { name: "invalid"; message: string };

/** Usage text of the CLI. */
export const USAGE = `Usage: indexer <command>

Commands:
  run [--config <file>]   Run the indexer (config from --config, INDEXER_CONFIG or INDEXER_CONFIG_FILE)
  validate [<file>]       Check a config file (or INDEXER_CONFIG) without running it
  help                    Show this text
`;

/** Parses `argv` (without node and script). No command means `run`. */
export function parseCommand(argv: readonly string[]): Command {
  const [name, ...rest] = argv;
  switch (name) {
    case undefined:
      return { name: "run" };
    case "run": {
      if (rest.length === 0) return { name: "run" };
      if (rest[0] === "--config" && rest[1] !== undefined && rest.length === 2) return { name: "run", configFile: rest[1] };
      const inline = rest[0]?.startsWith("--config=") === true && rest.length === 1 ? rest[0].slice("--config=".length) : undefined;
      return inline ? { name: "run", configFile: inline } : { name: "invalid", message: `run takes only --config <file>, got: ${rest.join(" ")}` };
    }
    case "validate":
      if (rest.length > 1) return { name: "invalid", message: "validate takes one file" };
      return rest[0] === undefined ? { name: "validate" } : { name: "validate", file: rest[0] };
    case "help":
    case "--help":
    case "-h":
      return { name: "help" };
    default:
      return { name: "invalid", message: `unknown command: ${name}` };
  }
}
