import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { createDb } from "../../../server/db/client";
import { makeClaudeJsonl } from "../make-claude-jsonl";
import { round, summarizeLatency, type LatencySummary } from "./latency";
import type { LoadAccount } from "./seed-load";
import { StudioClient } from "./studio-client";

export interface UploadScenarioResult {
  uploads: number;
  megabytesEach: number;
  wallSeconds: number;
  perUploadMs: LatencySummary;
  imported: number;
  errors: number;
  errorSamples: string[];
  verify: { importedOnce: number; missing: number; duplicated: number; wrongSessionCount: number };
}

/**
 * Scenario B: `count` distinct Claude Code traces of about `megabytes` MB each (one real session
 * repeated with salted ids, scripts/bench/make-claude-jsonl.ts) are uploaded at the same time with
 * `PUT /api/uploads`, as the studio's drop zone sends them. Each must answer 201, and the database
 * must then hold exactly one upload row per file name with the session count the answer reported.
 */
export async function runUploadScenario(
  origin: string,
  dbUrl: string,
  account: LoadAccount,
  sourcePath: string,
  workDir: string,
  count: number,
  megabytes: number,
): Promise<UploadScenarioResult> {
  const files: { name: string; path: string }[] = [];
  for (let i = 0; i < count; i++) {
    const name = `load-upload-${String(i).padStart(2, "0")}.jsonl`;
    const path = join(workDir, name);
    await makeClaudeJsonl(sourcePath, path, megabytes * 1024 * 1024, `u${i}_`);
    files.push({ name, path });
  }
  const bytes = (await stat(files[0]!.path)).size;
  const client = new StudioClient(origin);
  await client.signIn(account.email, account.password);

  const times: number[] = [];
  const errors: string[] = [];
  const reported = new Map<string, number>();
  const started = performance.now();
  await Promise.all(
    files.map(async (file) => {
      const body = await readFile(file.path);
      const t0 = performance.now();
      try {
        const response = await client.fetch(`/api/uploads?name=${encodeURIComponent(file.name)}`, {
          method: "PUT",
          headers: { "content-type": "application/octet-stream" },
          body,
        });
        const answer = (await response.json()) as { ok: boolean; message?: string; data?: { status: string; sessions: unknown[] } };
        if (response.status !== 201 || !answer.ok || answer.data?.status !== "imported")
          errors.push(`${file.name}: HTTP ${response.status} ${answer.message ?? answer.data?.status ?? ""}`);
        else reported.set(file.name, answer.data.sessions.length);
      } catch (error) {
        errors.push(`${file.name}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        times.push(performance.now() - t0);
      }
    }),
  );
  const wallSeconds = (performance.now() - started) / 1000;

  const db = createDb(dbUrl);
  try {
    const rows = await db.upload.findMany({
      where: { fileName: { in: files.map((f) => f.name) } },
      select: { fileName: true, sessionCount: true, _count: { select: { sessions: true } } },
    });
    let importedOnce = 0,
      missing = 0,
      duplicated = 0,
      wrongSessionCount = 0;
    for (const file of files) {
      const mine = rows.filter((r) => r.fileName === file.name);
      if (mine.length === 0) missing++;
      else if (mine.length > 1) duplicated++;
      else if (mine[0]!._count.sessions !== mine[0]!.sessionCount || (reported.has(file.name) && reported.get(file.name) !== mine[0]!._count.sessions))
        wrongSessionCount++;
      else importedOnce++;
    }
    return {
      uploads: count,
      megabytesEach: round(bytes / 1024 / 1024),
      wallSeconds: round(wallSeconds),
      perUploadMs: summarizeLatency(times),
      imported: reported.size,
      errors: errors.length,
      errorSamples: errors.slice(0, 5),
      verify: { importedOnce, missing, duplicated, wrongSessionCount },
    };
  } finally {
    await db.$disconnect();
  }
}
