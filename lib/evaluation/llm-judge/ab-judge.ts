import { clientIdFor, type LlmClient } from "../../llm/types";
import type { AbOutcome } from "./ab-calibrate";
import { buildAbMessages } from "./ab-contract";
import { buildAbPacket, type AbPacket, type AbSides } from "./ab-packet";
import { parseAbVerdict, type AbJudgeOutput } from "./ab-verdict";
import type { AnswerParseError } from "./issues";
import { askWithRepairs, type JudgeAttempt, type LlmJudgeOptions } from "./judge";
import type { JudgePacket } from "./packet";

/**
 * The A/B judge: builds the blinded pair packet with a seeded side assignment, asks the model
 * (purpose "ab-judge", temperature 0), parses Listing 4 strictly and maps the verdict back from
 * sides to policies. `outcome` is relative to the argument order (first ↔ A of the calibration),
 * so it feeds `calibrateNoImpact` directly whichever policy the coin showed first.
 */
export interface AbJudgeOptions extends LlmJudgeOptions {
  /** Seed of the side coin (store it with the run). */
  seed: number;
}

export interface AbDecision {
  verdict: AbJudgeOutput;
  sides: AbSides;
  /** The preferred policy id, or "tie". */
  preferred: string;
  /** Which argument won: first, second or tie. */
  winner: "first" | "second" | "tie";
  /** The same in calibration terms: first = A. */
  outcome: AbOutcome;
}

export type AbJudgeOutcome =
  | { ok: true; judge: string; decision: AbDecision; packet: Pick<AbPacket, "sessionId" | "cut" | "sides">; attempts: JudgeAttempt[] }
  | { ok: false; judge: string; error: AnswerParseError; packet: Pick<AbPacket, "sessionId" | "cut" | "sides">; attempts: JudgeAttempt[] };

export interface AbJudge {
  id: string;
  compare(first: JudgePacket, second: JudgePacket, caseKey?: string): Promise<AbJudgeOutcome>;
}

export function createAbJudge(client: LlmClient, options: AbJudgeOptions): AbJudge {
  const id = `llm:${clientIdFor(client, "ab-judge")}`;
  return {
    id,
    async compare(first, second, caseKey) {
      const packet = buildAbPacket(first, second, { seed: options.seed, ...(caseKey !== undefined ? { caseKey } : {}) });
      const meta = { sessionId: packet.sessionId, cut: packet.cut, sides: packet.sides };
      const result = await askWithRepairs(client, buildAbMessages(packet), "ab-judge", options, parseAbVerdict);
      if (!result.ok) return { ok: false, judge: id, error: result.error, packet: meta, attempts: result.attempts };
      return { ok: true, judge: id, decision: decide(result.value, packet.sides), packet: meta, attempts: result.attempts };
    },
  };
}

/** Maps a side verdict back to policies. */
export function decide(verdict: AbJudgeOutput, sides: AbSides): AbDecision {
  if (verdict.verdict === "tie") return { verdict, sides, preferred: "tie", winner: "tie", outcome: "tie" };
  const preferred = verdict.verdict === "A_better" ? sides.A : sides.B;
  const firstWon = (verdict.verdict === "A_better") !== sides.swapped;
  return { verdict, sides, preferred, winner: firstWon ? "first" : "second", outcome: firstWon ? "A_better" : "B_better" };
}
