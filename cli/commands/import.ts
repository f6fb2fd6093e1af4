import { FORMAT_IDS, type FormatId } from "@/lib/trace/model";
import { isTokenizerId } from "@/lib/tokens/tokenizer";
import { getDb } from "@/server/db/client";
import { databaseUrl } from "@/server/db/engine";
import { migrate } from "@/server/db/migrate";
import { listTraceFiles } from "@/server/trace/files/list-trace-files";
import { getBlobStore } from "@/server/storage/configured-blob-store";
import { importRedactedFile, redactionKinds, summarizeRedaction, type RedactedImportOutcome } from "@/server/trace/import/import-redacted-file";
import { importTraceFile } from "@/server/trace/import/import-trace-file";
import { ArchiveError } from "@/lib/trace/archive/archive-limits";
import { parseCommandArgs, UsageError } from "../args";
import { importCommand } from "../usage";

/**
 * Stores files into the studio's database (DATABASE_URL, default the embedded SQLite file). Secrets
 * are redacted first, exactly as uploads are (server/trace/import/import-redacted-file.ts), and each
 * file's line says what was redacted; `--no-redact` stores the bytes as they are.
 */
export async function runImport(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, importCommand);
  const redact = !values["no-redact"];
  if (positionals.length === 0) throw new UsageError("import needs at least one file or directory");
  if (values.format !== undefined && !(FORMAT_IDS as readonly string[]).includes(values.format)) {
    throw new UsageError(`unknown --format ${values.format}; expected one of ${FORMAT_IDS.join(", ")}`);
  }
  if (values.tokenizer !== undefined && !isTokenizerId(values.tokenizer)) throw new UsageError(`unknown --tokenizer ${values.tokenizer}`);
  await migrate(databaseUrl());
  const db = getDb();
  const store = getBlobStore();
  const results = [];
  try {
    for (const path of await listTraceFiles(positionals)) {
      const input = {
        db,
        store,
        path,
        ...(values.format ? { format: values.format as FormatId } : {}),
        ...(values.tokenizer && isTokenizerId(values.tokenizer) ? { tokenizer: values.tokenizer } : {}),
      };
      const outcome: RedactedImportOutcome = await refusedArchiveAsFailure(path, () => (redact ? importRedactedFile(input) : importTraceFile(input)));
      // The JSON line carries the counts per kind; the located entries stay in the studio (/api/uploads/<id>/redactions).
      const { redaction, ...rest } = outcome;
      results.push({
        path,
        ...rest,
        ...(outcome.status === "failed" ? {} : { redaction: redact ? { count: redaction?.count ?? 0, kinds: redactionKinds(redaction) } : null }),
      });
      if (!values.json) {
        if (outcome.status === "failed") {
          console.log(`failed    ${path} (${outcome.format})`);
          for (const e of outcome.errors.slice(0, 10)) console.log(`    line ${e.line}${e.field ? ` ${e.field}` : ""}: ${e.message}`);
        } else {
          console.log(
            `${outcome.status.padEnd(9)} ${path}: ${outcome.sessions.length} sessions (${outcome.format}); ${redact ? summarizeRedaction(redaction) : "not redacted (--no-redact)"}`,
          );
        }
      }
    }
  } finally {
    await db.$disconnect();
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ files: results })}\n`);
  return results.every((r) => r.status !== "failed") ? 0 : 1;
}

/** A compressed file refused by the expansion limits (or not an Inspect `.eval` zip) fails on its own line; the other files still import. */
async function refusedArchiveAsFailure(path: string, run: () => Promise<RedactedImportOutcome>): Promise<RedactedImportOutcome> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    return { status: "failed", format: "unknown", errors: [{ file: path, line: 1, message: error.message, severity: "error" }] };
  }
}
