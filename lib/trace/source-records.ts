import type { Message } from "./model";

/**
 * Lookups over a message's source records. A message merged from several records (Claude Code's
 * split API responses) lists them in `records`; every other message is one record at
 * `source.line`. Callers use these instead of reading `records` so both cases read the same.
 */

/** How many source records the message was made from (1 unless it was merged). */
export function recordCount(message: Pick<Message, "records">): number {
  return message.records?.length ?? 1;
}

/** Lines of every record the message was made from, in file order. */
export function recordLines(message: Pick<Message, "source" | "records">): number[] {
  return message.records ? message.records.map((r) => r.line) : [message.source.line];
}

/**
 * The line of the record part `part` came from: a located error or a "source line" link about a
 * part points there rather than at the message's first record.
 */
export function partSourceLine(message: Pick<Message, "source" | "records">, part: number): number {
  if (!message.records) return message.source.line;
  let end = 0;
  for (const record of message.records) {
    end += record.parts;
    if (part < end) return record.line;
  }
  return message.records.at(-1)?.line ?? message.source.line;
}
