import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateSuite } from "@/lib/scenario";
import { toTracefoldJsonl } from "@/lib/trace/export-tracefold-jsonl";
import { ArchiveError } from "@/lib/trace/archive/archive-limits";
import { parseTrace } from "@/lib/trace/parse-trace";
import type { Db } from "../db/client";
import { sourceFromFile } from "../trace/files/file-source";
import { listTraceFiles } from "../trace/files/list-trace-files";
import type { BlobStore } from "../storage/blob-store";
import { importRedactedFile } from "../trace/import/import-redacted-file";
import type { ImportOutcome } from "../trace/import/import-trace-file";

/** The demo suite: two generated sessions of each seed-000 workload, the same on every machine. */
export const DEMO_SUITE = { seed: 20261123, sessions: 6, targetTokens: 90_000 } as const;

export interface DemoSeedReport {
  file: string;
  status: ImportOutcome["status"];
  sessions: number;
}

/**
 * Seeds demo traces: the generated scenario suite (written as Tracefold JSONL, then imported like
 * any upload) and, when this checkout sits beside ../shared/traces, those real third-party traces
 * too. `sharedTracesNew` (../shared/traces-new) holds files of formats being added: only those
 * that import today (at least one session) are seeded, so a format joins the demo once its
 * importer exists and a file an importer refuses (Gemini CLI's prompt-only logs.json) is left out.
 * Every file goes through the upload's redaction first (the real traces do hold key-like
 * strings). Idempotent: files already imported are recognised by their (redacted) sha256 and skipped.
 */
export async function seedDemoTraces(
  db: Db,
  store: BlobStore,
  options: { dataDir: string; sharedTraces?: string; sharedTracesNew?: string },
): Promise<DemoSeedReport[]> {
  const demoDir = join(options.dataDir, "demo");
  await mkdir(demoDir, { recursive: true });
  const suiteFile = join(demoDir, `scenarios-${DEMO_SUITE.seed}.jsonl`);
  if (!existsSync(suiteFile)) {
    const scenarios = generateSuite({ seed: DEMO_SUITE.seed, sessions: DEMO_SUITE.sessions, targetTokens: DEMO_SUITE.targetTokens });
    await writeFile(suiteFile, toTracefoldJsonl(scenarios.map((s) => s.session)));
  }
  const files = [suiteFile];
  if (options.sharedTraces && existsSync(options.sharedTraces)) files.push(...(await listTraceFiles([options.sharedTraces])));
  if (options.sharedTracesNew && existsSync(options.sharedTracesNew)) files.push(...(await importableFiles(options.sharedTracesNew)));
  const reports: DemoSeedReport[] = [];
  for (const file of files) {
    const outcome = await importRedactedFile({ db, store, path: file });
    reports.push({ file, status: outcome.status, sessions: outcome.status === "failed" ? 0 : outcome.sessions.length });
  }
  return reports;
}

/** Files under `dir` some importer recognises and imports at least one session from. */
async function importableFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const file of await listTraceFiles([dir])) {
    // A compressed file the expansion limits refuse (ArchiveError) is not importable either.
    const parsed = await sourceFromFile(file).then(parseTrace, (error: unknown) => (error instanceof ArchiveError ? undefined : Promise.reject(error)));
    if (parsed && parsed.sessions.length > 0) out.push(file);
  }
  return out;
}
