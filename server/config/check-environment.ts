import { readLlmConfig } from "../llm/config";
import { PURPOSE_SLOTS, envPrefix } from "../llm/slots";
import { storageConfigFrom } from "../storage/storage-config";
import { processEnv, type Env } from "../env";
import { VARIABLES } from "./variables";

/** The environment has bad settings; the message lists every one, by name. */
export class EnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`bad settings in the environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvironmentError";
  }
}

/**
 * Every problem with the variables that are set, each naming its variable and what it expects (a
 * secret's value is never echoed). The families are checked by their owners' parsers, the same
 * code that reads them later, so a setting has one rule.
 */
export function checkEnvironment(env: Env = processEnv()): string[] {
  const problems: string[] = [];
  for (const variable of VARIABLES) {
    const raw = env[variable.name];
    if (!variable.check || raw === undefined || raw.trim() === "") continue;
    const parsed = variable.check.safeParse(raw);
    if (!parsed.success) problems.push(`${variable.name} ${parsed.error.issues[0]!.message}${variable.secret ? "" : `, got ${JSON.stringify(raw)}`}`);
  }
  const owned: [string, () => unknown][] = [
    ["TRACEFOLD_STORAGE", () => storageConfigFrom(env)],
    ["TRACEFOLD_LLM_", () => readLlmConfig(env)],
    ...PURPOSE_SLOTS.map((slot) => [envPrefix(slot), () => readLlmConfig(env, envPrefix(slot))] as [string, () => unknown]),
  ];
  for (const [, read] of owned) {
    try {
      read();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!problems.includes(message)) problems.push(message);
    }
  }
  return problems;
}

/** At start-up (studio, worker): refuse to run with a bad setting rather than fall back silently. */
export function assertEnvironment(env: Env = processEnv()): void {
  const problems = checkEnvironment(env);
  if (problems.length > 0) throw new EnvironmentError(problems);
}

/** For the studio's and the worker's start-up: every bad setting on stderr, then exit 1. */
export function checkEnvironmentOrExit(who: string, env: Env = processEnv()): void {
  const problems = checkEnvironment(env);
  if (problems.length === 0) return;
  console.error(`${who}: ${new EnvironmentError(problems).message}`);
  process.exit(1);
}
