/** A parsed command line. */
export type Command = { name: "run"; configFile?: string } | { name: "validate"; file?: string } | { name: "help" } | { name: "invalid"; message: string };

/** Usage text of the CLI. */
export const USAGE = `Usage: indexer <command>

Commands:
  run [--config <file>]   Run the indexer (config from --config, INDEXER_CONFIG or INDEXER_CONFIG_FILE)
  validate [<file>]       Check a config file (or INDEXER_CONFIG) without running it
  help                    Show this text
`;

const isHelp = (arg: string) => arg === "--help" || arg === "-h";

/** The refusal of `arg` where a file is expected, when it reads as an option: a file of that name is written `./-name`. */
function optionForFile(command: string, arg: string): Command | undefined {
  return arg.startsWith("-")
    ? { name: "invalid", message: `${command} takes a file, not the option ${arg} (write ./${arg} for a file of that name)` }
    : undefined;
}

/** Parses `argv` (without node and script). No command means `run`; `--help` or `-h` after a command asks for help. */
export function parseCommand(argv: readonly string[]): Command {
  const [name, ...rest] = argv;
  switch (name) {
    case undefined:
      return { name: "run" };
    case "help":
    case "--help":
    case "-h":
      return rest.length === 0 ? { name: "help" } : { name: "invalid", message: `help takes no arguments, got: ${rest.join(" ")}` };
    case "run": {
      if (rest.some(isHelp)) return { name: "help" };
      if (rest.length === 0) return { name: "run" };
      const file =
        rest[0] === "--config" && rest.length === 2
          ? rest[1]
          : rest[0]?.startsWith("--config=") === true && rest.length === 1
            ? rest[0].slice("--config=".length)
            : undefined;
      if (file === undefined || file === "") return { name: "invalid", message: `run takes only --config <file>, got: ${rest.join(" ")}` };
      return optionForFile("run --config", file) ?? { name: "run", configFile: file };
    }
    case "validate":
      if (rest.some(isHelp)) return { name: "help" };
      if (rest.length > 1) return { name: "invalid", message: "validate takes one file" };
      if (rest[0] === undefined) return { name: "validate" };
      return optionForFile("validate", rest[0]) ?? { name: "validate", file: rest[0] };
    default:
      return { name: "invalid", message: `unknown command: ${name}` };
  }
}
