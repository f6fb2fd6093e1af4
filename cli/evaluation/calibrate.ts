import { readFile } from "node:fs/promises";
import { calibrateJudge, type ResolvedTrace } from "@/lib/evaluation/calibration/calibrate-judge";
import { parseGold, type GoldLine, type GoldUnit } from "@/lib/evaluation/calibration/gold";
import type { EvalReportContract } from "@/lib/evaluation/aggregate/report-contract";
import type { LoadedSuite } from "./load-sessions";

/**
 * `tracefold eval … --calibrate GOLD.jsonl`: the dependency judge's agreement with a gold set of
 * carefully read views (lib/evaluation/calibration). Gold units are found among the sessions the command
 * loaded: by the trace file (its path relative to the traces directory ends the loaded path) and
 * the session id. A gold file with a malformed line is refused whole (UsageError-style message).
 */
export class GoldFileError extends Error {}

export interface GoldFile {
  path: string;
  lines: GoldLine[];
}

/** Reads and validates the gold file before anything is replayed (a bad file fails fast). */
export async function readGoldFile(path: string): Promise<GoldFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new GoldFileError(`--calibrate ${path}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  const { lines, errors } = parseGold(text);
  if (errors.length > 0)
    throw new GoldFileError(
      `--calibrate ${path}: ${errors
        .slice(0, 10)
        .map((e) => `line ${e.line}: ${e.message}`)
        .join("; ")}${errors.length > 10 ? `; … ${errors.length - 10} more` : ""}`,
    );
  if (lines.length === 0) throw new GoldFileError(`--calibrate ${path}: the file holds no gold unit`);
  return { path, lines };
}

/** The judge's agreement with the gold file over the sessions the command loaded. */
export function calibrateAgainst(gold: GoldFile, loaded: LoadedSuite): NonNullable<EvalReportContract["calibration"]> {
  const resolve = (unit: GoldUnit): ResolvedTrace | undefined => {
    const found = loaded.sessions.find((s) => rawId(s.session.id) === rawId(unit.sessionId) && normalise(s.path).endsWith(`/${unit.trace.path}`));
    if (!found) return undefined;
    const tokenizer = loaded.tokenizerFor(found.session);
    return { session: found.session, index: found.index, countTokens: (t) => tokenizer.count(t) };
  };
  const { judged: _judged, ...result } = calibrateJudge(gold.lines, resolve);
  return { gold: gold.path, ...result };
}

function normalise(path: string): string {
  return `/${path.replace(/\\/g, "/").replace(/^\/+/, "")}`;
}

/** A session id as its file names it: loadSessions suffixes ids repeated across files with `#2`, `#3`. */
function rawId(id: string): string {
  return id.replace(/#\d+$/, "");
}
