import { readFile, writeFile } from "node:fs/promises";
import { getDb } from "@/server/db/client";
import { databaseUrl } from "@/server/db/engine";
import { migrate } from "@/server/db/migrate";
import { exportGoldQueue } from "@/server/review/export-gold";
import { importGoldQueue } from "@/server/review/import-gold";
import { parseCommandArgs, UsageError } from "../args";
import { reviewCommand } from "../usage";

/**
 * `tracefold review import-gold`: a gold file (the judge's calibration set, one `{unit, label}` per
 * line) into the studio's database (DATABASE_URL) as a calibration queue — exactly what the review
 * page's import does: all or nothing, every problem printed with its line and field, the units'
 * traces must be imported first (`tracefold import`), the same file twice answers with its queue.
 * `tracefold review export-gold`: a calibration queue back as a gold file (stdout or --out), with
 * the labels people added beside the gold ones.
 */
export async function runReview(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, reviewCommand);
  const [sub, target, ...extra] = positionals;
  if ((sub !== "import-gold" && sub !== "export-gold") || !target || extra.length > 0)
    throw new UsageError("review takes import-gold GOLD.jsonl or export-gold QUEUE_ID");
  await migrate(databaseUrl());
  const db = getDb();
  try {
    if (sub === "export-gold") {
      const text = await exportGoldQueue(db, target);
      if (text === null) throw new Error(`no calibration queue ${target}`);
      if (values.out) await writeFile(values.out, text);
      else process.stdout.write(text);
      return 0;
    }
    const overlap = values.overlap === undefined ? undefined : Number(values.overlap);
    if (overlap !== undefined && (!Number.isInteger(overlap) || overlap < 1 || overlap > 20))
      throw new UsageError(`--overlap must be a whole number from 1 to 20, got ${JSON.stringify(values.overlap)}`);
    const outcome = await importGoldQueue(db, await readGold(target), {
      ...(values.name ? { name: values.name } : {}),
      ...(overlap !== undefined ? { overlap } : {}),
    });
    if (values.json) process.stdout.write(`${JSON.stringify(outcome)}\n`);
    else if (outcome.ok)
      console.log(
        `${outcome.duplicate ? "already imported" : "imported"} ${target}: queue ${outcome.queueId}, ${outcome.items} items, ${outcome.labels} label versions`,
      );
    else {
      console.error(`refused ${target}: ${outcome.message}`);
      for (const e of outcome.errors.slice(0, 20)) console.error(`    line ${e.line} ${e.field}: ${e.message} (expected ${e.expected})`);
      if (outcome.errors.length > 20) console.error(`    … ${outcome.errors.length - 20} more`);
    }
    return outcome.ok ? 0 : 1;
  } finally {
    await db.$disconnect();
  }
}

async function readGold(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`${path}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
}
