import type { Message, NativeCompaction, Part, Session } from "./model";
import { TRACEFOLD_JSONL_VERSION, type TracefoldCompactionLine, type TracefoldMessageLine, type TracefoldSessionLine } from "./importers/tracefold-jsonl";

/**
 * Writes sessions as Tracefold JSONL (docs/tracefold-jsonl.md), so a trace imported from any format
 * can be saved, edited or shared in the one documented format and imported back unchanged.
 *
 * Per session: the `session` line, then its messages in order with each compaction written just
 * before the message it precedes (compactions at the end follow the last message). Derived data is
 * left out — message indexes, source locations and `orphan` flags are recomputed on import — so
 * `import(export(s))` yields the same messages apart from their source lines (`source`, `records`).
 */
export function toTracefoldJsonl(sessions: Session[]): string {
  return sessions
    .flatMap(sessionLines)
    .map((line) => `${JSON.stringify(line)}\n`)
    .join("");
}

function sessionLines(session: Session): (TracefoldSessionLine | TracefoldMessageLine | TracefoldCompactionLine)[] {
  const lines: (TracefoldSessionLine | TracefoldMessageLine | TracefoldCompactionLine)[] = [headerLine(session)];
  const byPosition = new Map<number, NativeCompaction[]>();
  for (const compaction of session.compactions) {
    byPosition.set(compaction.beforeMessage, [...(byPosition.get(compaction.beforeMessage) ?? []), compaction]);
  }
  for (let i = 0; i <= session.messages.length; i++) {
    for (const compaction of byPosition.get(i) ?? []) lines.push(compactionLine(session.id, compaction));
    const message = session.messages[i];
    if (message) lines.push(messageLine(session.id, message));
  }
  return lines;
}

function headerLine(session: Session): TracefoldSessionLine {
  const { sourceFormat: _previous, ...meta } = session.meta ?? {};
  const sourceFormat = session.format === "tracefold_jsonl" ? asFormat(session.meta?.sourceFormat) : session.format;
  return stripUndefined({
    tracefold: TRACEFOLD_JSONL_VERSION,
    type: "session",
    id: session.id,
    title: session.title,
    sourceFormat,
    models: session.models,
    startedAt: session.startedAt,
    usage: session.usage,
    parentId: session.parentId,
    meta: Object.keys(meta).length ? meta : undefined,
  });
}

/** A re-exported Tracefold session keeps the format it originally came from. */
function asFormat(value: unknown): TracefoldSessionLine["sourceFormat"] {
  return typeof value === "string" ? (value as TracefoldSessionLine["sourceFormat"]) : undefined;
}

function messageLine(session: string, message: Message): TracefoldMessageLine {
  return stripUndefined({
    type: "message",
    session,
    role: message.role,
    parts: message.parts.map(exportPart),
    timestamp: message.timestamp,
    model: message.model,
    usage: message.usage,
    meta: message.meta,
  });
}

/** Drops `orphan`: it is derived from the order of calls and results on import. */
function exportPart(part: Part): TracefoldMessageLine["parts"][number] {
  if (part.type !== "tool_result") return part;
  const { orphan: _orphan, ...rest } = part;
  return rest;
}

function compactionLine(session: string, compaction: NativeCompaction): TracefoldCompactionLine {
  return stripUndefined({
    type: "compaction",
    session,
    kind: compaction.kind,
    trigger: compaction.trigger,
    preTokens: compaction.preTokens,
    summary: compaction.summary,
    timestamp: compaction.timestamp,
  });
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
