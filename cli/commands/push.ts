import { resolve } from "node:path";
import { isKeyText } from "@/lib/ingest/keys/api-key";
import { isPushed } from "@/lib/ingest/push/push-state";
import { listTraceFiles } from "@/server/trace/files/list-trace-files";
import { parseCommandArgs, UsageError } from "../args";
import { pushCommand } from "../usage";
import { createProgress } from "../progress";
import { defaultStatePath, PushStateError, readPushState, sha256OfFile, writePushState } from "../ingest/push/state-file";
import { uploadFile, type PushOutcome } from "../ingest/push/upload-file";
import { processEnv } from "@/server/env";

type FileResult = { path: string; sha256: string } & (PushOutcome | { status: "skipped" });

/**
 * `tracefold push <file|dir>... --to URL --key KEY`: sends trace files to a studio through its REST
 * API (`POST /api/v1/uploads`) with an `ingest` key, so a CI job or an agent harness can ship its
 * traces. A progress bar on stderr; rate limits, server errors and dropped connections retried with
 * backoff; a state file (default `.tracefold-push.<host>.json`) records what arrived, so a stopped or
 * repeated push sends only new or changed files. The key may come from TRACEFOLD_API_KEY instead
 * of the command line. Exit 0 when every file is at the studio, 1 when some failed.
 */
export async function runPush(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, pushCommand);
  if (positionals.length === 0) throw new UsageError("push needs at least one file or directory");
  const to = studioUrl(values.to);
  const key = values.key ?? processEnv().TRACEFOLD_API_KEY ?? "";
  if (!isKeyText(key))
    throw new UsageError(
      key
        ? "--key is not a Tracefold API key (tfk_ and 43 characters)"
        : "--key KEY (or TRACEFOLD_API_KEY) is required: an ingest key from Admin → API keys or tracefold keys create",
    );
  const statePath = resolve(values.state ?? defaultStatePath(to));
  let state;
  try {
    state = await readPushState(statePath, to);
  } catch (error) {
    if (!(error instanceof PushStateError)) throw error;
    console.error(`tracefold push: ${error.message}`);
    return 2;
  }
  // The state file is JSON and may sit in a pushed directory: never send it.
  const files = (await listTraceFiles(positionals)).filter((file) => !resolve(file).startsWith(statePath));
  const progress = createProgress(process.stderr, { lines: !values.json });
  const client = { to, key, sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)), onRetry: (message: string) => progress.note(`  ${message}`) };
  const results: FileResult[] = [];
  for (const [i, file] of files.entries()) {
    progress.update("pushing", i, files.length);
    const path = resolve(file);
    const sha256 = await sha256OfFile(path);
    if (isPushed(state, path, sha256)) {
      results.push({ path: file, sha256, status: "skipped" });
      continue;
    }
    const outcome = await uploadFile(client, path);
    results.push({ path: file, sha256, ...outcome });
    if (outcome.status === "failed") progress.note(`failed ${file}: ${outcome.message}`);
    else {
      state.files[path] = {
        sha256,
        status: outcome.status,
        sessions: outcome.sessions,
        pushedAt: new Date().toISOString(),
        ...(outcome.uploadId ? { uploadId: outcome.uploadId } : {}),
      };
      await writePushState(statePath, state);
    }
  }
  progress.update("pushing", files.length, files.length);
  progress.finish();
  const count = (status: FileResult["status"]) => results.filter((r) => r.status === status).length;
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ to, state: statePath, files: results.map((r) => ({ path: r.path, sha256: r.sha256, status: r.status, ...("sessions" in r ? { sessions: r.sessions } : {}), ...("uploadId" in r && r.uploadId ? { uploadId: r.uploadId } : {}), ...("message" in r ? { message: r.message } : {}) })) })}\n`,
    );
  } else {
    console.log(
      `pushed ${files.length} file${files.length === 1 ? "" : "s"} to ${to}: ${count("imported")} imported, ${count("duplicate")} already there, ${count("skipped")} unchanged since the last push, ${count("failed")} failed`,
    );
  }
  return count("failed") === 0 ? 0 : 1;
}

function studioUrl(value: string | undefined): string {
  if (!value) throw new UsageError("--to URL is required: the studio's address, e.g. https://tracefold.example.com");
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
    return url.origin;
  } catch {
    throw new UsageError(`--to must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
}
