import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { once } from "node:events";
import type { JudgedUnitView } from "@/lib/evaluation/runner/evaluate-suite";
import { createViewsLineWriter } from "@/lib/evaluation/views/export-lines";
import type { Tokenizer } from "@/lib/tokens/tokenizer";
import type { Session } from "@/lib/trace/model";

/**
 * `tracefold eval … --export-views FILE.jsonl`: the judged units as the public views contract
 * (docs/views.schema.json), streamed to the file as the replay goes, waiting for the disk when it
 * falls behind. The file is written under a temporary name and renamed only when complete, so a
 * failed run never leaves a truncated export under the name asked for.
 */
export interface ViewsExport {
  write: (unit: JudgedUnitView) => Promise<void>;
  /** Renames the finished file into place (`ok`), or removes the partial one. */
  close: (ok: boolean) => Promise<void>;
}

export function createViewsExport(path: string, tokenizerFor: (session: Session) => Tokenizer): ViewsExport {
  const temp = `${path}.partial`;
  const stream = createWriteStream(temp, { encoding: "utf8" });
  const lines = createViewsLineWriter((session) => {
    const tokenizer = tokenizerFor(session);
    return (text) => tokenizer.count(text);
  });
  let failed: Error | undefined;
  stream.on("error", (error) => (failed = error));
  return {
    async write(unit) {
      if (failed) throw new Error(`--export-views ${path}: ${failed.message}`);
      for (const line of lines.linesFor(unit)) {
        if (!stream.write(`${JSON.stringify(line)}\n`)) await once(stream, "drain");
      }
    },
    async close(ok) {
      stream.end();
      await once(stream, "close").catch(() => undefined);
      if (failed || !ok) {
        await rm(temp, { force: true });
        if (failed) throw new Error(`--export-views ${path}: ${failed.message}`);
        return;
      }
      await rename(temp, path);
    },
  };
}
