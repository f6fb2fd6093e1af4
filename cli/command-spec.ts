import type { ParseArgsConfig } from "node:util";

type ParseOption = NonNullable<ParseArgsConfig["options"]>[string];

/** One option: node's parseArgs config plus what `--help` prints for it. */
export type OptionSpec = ParseOption & {
  /** The value's placeholder in the help (`FILE`, `N`); none for a boolean flag. */
  value?: string;
  help: string;
};

/** A command's help and the options its parser accepts, in one object (see cli/usage.ts). */
export interface CommandSpec<O extends Record<string, OptionSpec>> {
  synopsis: string;
  summary: string;
  options: O;
  /** What each exit code means for this command. */
  exits: string;
}

/** Keeps the option literals' types, so parseCommandArgs infers each value's type from them. */
export function defineCommand<const O extends Record<string, OptionSpec>>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/**
 * `tracefold <command> --help`: the synopsis, the summary, one line per option (with its default)
 * and the exit codes. Hand-written rather than a CLI framework: the commands already parse with
 * node's own parseArgs, and this is the only part a framework would add.
 */
export function renderCommandHelp(spec: CommandSpec<Record<string, OptionSpec>>): string {
  const rows = Object.entries(spec.options).map(([flag, option]) => {
    const left = `--${flag}${option.value ? ` ${option.value}` : ""}`;
    const fallback =
      option.default === undefined || option.default === false || (Array.isArray(option.default) && option.default.length === 0)
        ? ""
        : ` (default ${String(option.default)})`;
    return [left, `${option.help}${fallback}${option.multiple ? " (repeatable)" : ""}`] as const;
  });
  rows.push(["-h, --help", `print this help`]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `usage: ${spec.synopsis}`,
    "",
    spec.summary,
    "",
    "options:",
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    "",
    `exit codes: ${spec.exits}`,
  ].join("\n");
}
