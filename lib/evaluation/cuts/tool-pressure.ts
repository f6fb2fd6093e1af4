import type { ContextIndex } from "../../compaction/context/objects";
import type { Session } from "../../trace/model";
import { replayCuts, type ReplayCutOptions } from "./cut-protocol";

/**
 * Tool pressure (seed 000, Table 1): how much of what the agent carries is tool output, measured
 * where the replay protocol cuts. The Hard Set ranks sessions by it.
 */
export interface ToolPressure {
  /** Share of prefix tokens held by tool results at each replay cut. */
  atCuts: number[];
  /**
   * The median of `atCuts` — pressure that lasts across the session, not one huge dump. A session
   * without replay cuts gets the whole-session share (and is not eligible for the Hard Set).
   */
  sustained: number;
}

export function toolPressure(session: Session, index: ContextIndex, options: ReplayCutOptions = {}): ToolPressure {
  const toolTokensBefore = new Array<number>(session.messages.length + 1).fill(0);
  const perMessage = new Array<number>(session.messages.length).fill(0);
  for (const object of index.objects) if (object.kind === "function" && object.part) perMessage[object.part.message]! += object.tokens;
  for (let m = 0; m < session.messages.length; m++) toolTokensBefore[m + 1] = toolTokensBefore[m]! + perMessage[m]!;
  const share = (cut: number) => (index.prefixTokens[cut]! > 0 ? toolTokensBefore[cut]! / index.prefixTokens[cut]! : 0);
  const atCuts = replayCuts(session, index, options).map((c) => share(c.cut));
  return { atCuts, sustained: atCuts.length > 0 ? median(atCuts) : share(session.messages.length) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
