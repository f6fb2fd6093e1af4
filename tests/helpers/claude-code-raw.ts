import { readFileSync } from "node:fs";

/**
 * Messages a Claude Code file holds once each API response is one message, counted straight from
 * the raw JSONL (not through the importer): every user/assistant record is a message, except an
 * assistant record whose `message.id` continues the response still being written — it stays open
 * across tool-result records and closes at any other user record, another response or a boundary.
 * In a main transcript (its first message is not a sidechain record) sidechain records belong to
 * threads of their own, followed through `parentUuid`: each thread is one more session, and a
 * response stays open across the records of other threads.
 */
export function countResponses(path: string): { records: number; messages: number; continuations: number; inlineThreads: number } {
  let records = 0;
  let continuations = 0;
  let isMain: boolean | undefined;
  const open = new Map<string, string | undefined>();
  const threadOf = new Map<string, string>();
  for (const text of readFileSync(path, "utf8").split("\n")) {
    if (!text.trim()) continue;
    const record = JSON.parse(text) as {
      type?: string;
      subtype?: string;
      isSidechain?: boolean;
      uuid?: string;
      parentUuid?: string | null;
      message?: { id?: string; content?: unknown };
    };
    const isMessage = record.type === "user" || record.type === "assistant";
    if (isMessage) isMain ??= record.isSidechain !== true;
    let thread = "main";
    if (isMain && record.isSidechain === true) {
      const known = record.parentUuid ? threadOf.get(record.parentUuid) : undefined;
      if (!known && !isMessage) continue;
      thread = known ?? `thread-${open.size}`;
      if (record.uuid) threadOf.set(record.uuid, thread);
    }
    if (record.type === "system" && record.subtype === "compact_boundary") open.set(thread, undefined);
    if (!isMessage) continue;
    records++;
    if (record.type === "assistant") {
      if (open.get(thread) !== undefined && record.message?.id === open.get(thread)) continuations++;
      else open.set(thread, record.message?.id);
    } else {
      const content = record.message?.content;
      const isResult = Array.isArray(content) && content.some((b: { type?: string }) => b?.type === "tool_result");
      if (!isResult || !open.has(thread)) open.set(thread, undefined);
    }
  }
  return { records, messages: records - continuations, continuations, inlineThreads: [...open.keys()].filter((k) => k !== "main").length };
}
