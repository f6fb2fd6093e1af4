import { toTracefoldJsonl } from "../../lib/trace/export-tracefold-jsonl";
import type { Db } from "../db/client";
import { loadStoredSession } from "../sessions/load-analyzed-session";

/**
 * One stored session as Tracefold JSONL (docs/tracefold-jsonl.md): what uploads and `tracefold
 * import` read back into the same messages. The text is what was stored, so redacted secrets stay
 * redacted. Null when no such session.
 */
export async function exportSessionJsonl(db: Db, id: string): Promise<{ fileName: string; text: string } | null> {
  const loaded = await loadStoredSession(db, id);
  if (!loaded) return null;
  return { fileName: `${id}.tracefold.jsonl`, text: toTracefoldJsonl([loaded.session]) };
}
