import type { Progress } from "../progress";
import { loadSessions, NoTraceFilesError, type LoadedSuite, type LoadOptions } from "./load-sessions";

/**
 * `loadSessions` as the suite commands (`eval`, `rollout`) run it: a loading bar on a terminal,
 * each file left out reported with its first problems, and the two dead ends — no trace file, no
 * session — said on stderr as `tracefold <command>: …`. Undefined means the command exits 1.
 */
export async function loadForCommand(
  { command, verb }: { command: string; verb: string },
  inputs: string[],
  options: Omit<LoadOptions, "onFile">,
  progress: Progress,
  isTerminal: boolean,
): Promise<LoadedSuite | undefined> {
  let loaded;
  try {
    loaded = await loadSessions(inputs, { ...options, onFile: (_, i, total) => isTerminal && progress.update("loading", i + 1, total) });
  } catch (error) {
    if (!(error instanceof NoTraceFilesError)) throw error;
    console.error(`tracefold ${command}: ${error.message}`);
    return undefined;
  }
  progress.finish();
  for (const file of loaded.failed) {
    progress.note(`skipped ${file.path}: ${file.problems.length} error${file.problems.length === 1 ? "" : "s"}`);
    for (const problem of file.problems.slice(0, 5)) progress.note(`  ${problem}`);
    if (file.problems.length > 5) progress.note(`  … ${file.problems.length - 5} more`);
  }
  if (loaded.sessions.length === 0) {
    console.error(`tracefold ${command}: no sessions to ${verb} in ${loaded.files} file${loaded.files === 1 ? "" : "s"}`);
    return undefined;
  }
  return loaded;
}
