import { createAnalyzer, type AnalyzedSession } from "../../lib/analysis/analyze";
import { parseTrace } from "../../lib/trace/parse-trace";
import type { FormatId } from "../../lib/trace/model";
import { sourceFromFile } from "../../server/trace/files/file-source";
import { readManifest, type ManifestEntry } from "./traces";
import { readNewManifest } from "./traces-new";

export interface LoadedTrace {
  entry: ManifestEntry;
  sessions: AnalyzedSession[];
}

let cache: Promise<LoadedTrace[]> | undefined;
let newCache: Promise<LoadedTrace[]> | undefined;

/**
 * Every real trace of ../shared/traces parsed and indexed once per test process (o200k). Tests that
 * pin figures over "the real traces" (fingerprints, the policy sample) read this set, so a new file
 * elsewhere cannot move them.
 */
export function loadAllTraces(): Promise<LoadedTrace[]> {
  cache ??= loadEntries(readManifest());
  return cache;
}

/**
 * `loadAllTraces()` plus the imported files of ../shared/traces-new: what every test that states a
 * property of all real traces (invariants, valid projections, safe cuts) runs over.
 */
export async function loadEveryTrace(): Promise<LoadedTrace[]> {
  newCache ??= loadEntries(readNewManifest());
  return [...(await loadAllTraces()), ...(await newCache)];
}

async function loadEntries(entries: ManifestEntry[]): Promise<LoadedTrace[]> {
  const analyzer = createAnalyzer({ tokenizer: "o200k" });
  const out: LoadedTrace[] = [];
  for (const entry of entries) {
    const parsed = await parseTrace(await sourceFromFile(entry.absolutePath, entry.path), { format: entry.format as FormatId });
    out.push({ entry, sessions: parsed.sessions.map((s) => analyzer.analyze(s)) });
  }
  return out;
}
