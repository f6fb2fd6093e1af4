/**
 * The one reader of `process.env` in the studio, the workers and the CLI (issue 18; a test fails on
 * any other). It hands out the live environment rather than a snapshot: settings are read when used,
 * so a running server follows its own environment, not the build machine's, and tests can set a
 * variable for one case. What each variable means, its default and its check live in
 * server/config/variables.ts; server/config/check-environment.ts validates them all at start-up.
 */
export type Env = Readonly<Record<string, string | undefined>>;

export function processEnv(): Env {
  return process.env;
}
