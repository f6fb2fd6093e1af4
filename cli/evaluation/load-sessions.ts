import type { SuiteSession } from "@/lib/evaluation/runner/evaluate-suite";
import { createAnalyzer } from "@/lib/analysis/analyze";
import type { FormatId, Session } from "@/lib/trace/model";
import { parseTrace } from "@/lib/trace/parse-trace";
import type { Tokenizer, TokenizerId } from "@/lib/tokens/tokenizer";
import { sourceFromFile } from "@/server/trace/files/file-source";
import { listTraceFiles } from "@/server/trace/files/list-trace-files";

/**
 * Loads the sessions `tracefold eval` replays: every trace file under the arguments, parsed and
 * indexed with one analyzer (one cached tokenizer per id, so repeated content is counted once).
 *
 * A file with any error is left out whole — as `import` refuses it in one transaction — and
 * reported with its file and line; the other files still load. Session ids repeated across files
 * (two copies of one transcript) would merge in paired comparisons, so later ones get `#2`, `#3`.
 */
export interface LoadedSuite {
  /** Each session with the file it came from (as listed from the arguments). */
  sessions: (SuiteSession & { path: string })[];
  tokenizerFor: (session: Session) => Tokenizer;
  files: number;
  /** Files left out, with every located problem (`path:line: message`). */
  failed: { path: string; problems: string[] }[];
  /** Files that parsed cleanly but hold no session (not an error). */
  empty: string[];
}

export interface LoadOptions {
  format?: FormatId;
  tokenizer?: TokenizerId;
  /** Called once per file as it finishes (progress). */
  onFile?: (path: string, index: number, total: number) => void;
}

/** Thrown when the arguments name no readable trace file at all. */
export class NoTraceFilesError extends Error {}

export async function loadSessions(inputs: string[], options: LoadOptions = {}): Promise<LoadedSuite> {
  const paths = await listPaths(inputs);
  if (paths.length === 0)
    throw new NoTraceFilesError(`no trace files in ${inputs.join(", ")} (looked for .jsonl, .ndjson, .json, .traj and aider chat histories)`);
  const analyzer = createAnalyzer(options.tokenizer ? { tokenizer: options.tokenizer } : {});
  const sessions: LoadedSuite["sessions"] = [];
  const failed: LoadedSuite["failed"] = [];
  const empty: string[] = [];
  const seen = new Map<string, number>();
  for (const [i, path] of paths.entries()) {
    const problems = await loadFile(path, options.format, (session) => {
      const count = (seen.get(session.id) ?? 0) + 1;
      seen.set(session.id, count);
      const unique = count === 1 ? session : { ...session, id: `${session.id}#${count}` };
      const { index } = analyzer.analyze(unique);
      sessions.push({ session: unique, index, path });
    });
    if (problems === "empty") empty.push(path);
    else if (problems.length > 0) failed.push({ path, problems });
    options.onFile?.(path, i, paths.length);
  }
  return { sessions, tokenizerFor: analyzer.tokenizerFor, files: paths.length, failed, empty };
}

async function listPaths(inputs: string[]): Promise<string[]> {
  try {
    return await listTraceFiles(inputs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const path = (error as NodeJS.ErrnoException).path;
    if (code === "ENOENT") throw new NoTraceFilesError(`no such file or directory: ${path ?? inputs.join(", ")}`);
    throw error;
  }
}

/** Parses one file; returns its problems (none when its sessions were added), or "empty". */
async function loadFile(path: string, format: FormatId | undefined, add: (session: Session) => void): Promise<string[] | "empty"> {
  let parsed;
  try {
    parsed = await parseTrace(await sourceFromFile(path), format ? { format } : {});
  } catch (error) {
    return [`${path}: ${error instanceof Error ? error.message : String(error)}`];
  }
  const errors = parsed.issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) {
    return errors.map((e) => `${e.file}:${e.line}: ${e.message}${e.field ? ` (field ${e.field})` : ""}${e.expected ? `; expected ${e.expected}` : ""}`);
  }
  if (parsed.sessions.length === 0) return "empty";
  for (const session of parsed.sessions) add(session);
  return [];
}
