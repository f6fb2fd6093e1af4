import { parseArgs, type ParseArgsConfig } from "node:util";
import type { CommandSpec, OptionSpec } from "./command-spec";

/** Thrown for bad command lines; main prints the message and the command's usage, exit 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * node:util parseArgs over a command's own options (cli/usage.ts), with errors turned into
 * UsageError (no stack traces for typos). The help texts are stripped first: parseArgs knows
 * only its own keys.
 */
export function parseCommandArgs<const T extends Record<string, OptionSpec>>(args: string[], spec: CommandSpec<T>) {
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([flag, option]) => {
      const { help: _help, value: _value, ...config } = option;
      return [flag, config];
    }),
  ) as Options as T;
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
