/**
 * LLM judges of replay cuts: the diff-grounded single-packet no-impact judge (seed 000 Listing 3)
 * and the blinded A/B judge (Listing 4), with their packets, contracts and strict parsers.
 */
export { abSides, buildAbPacket, type AbPacket, type AbSides } from "./ab-packet";
export { AB_JUDGE_CONTRACT, buildAbMessages } from "./ab-contract";
export { createAbJudge, decide, type AbDecision, type AbJudge, type AbJudgeOptions, type AbJudgeOutcome } from "./ab-judge";
export { AB_VERDICTS, AbJudgeOutputSchema, parseAbVerdict, type AbJudgeOutput, type AbVerdictLabel } from "./ab-verdict";
export { elideText, fitEntries, type Entry, type FitOptions } from "./bound";
export { buildJudgeMessages, JUDGE_CONTRACT } from "./contract";
export { impactedTurns, type ImpactedPart, type ImpactedTurn, type ImpactKind } from "./diff";
export { extractJsonObject } from "./extract-json";
export type { AnswerIssue, AnswerParseError, ParseOutcome } from "./issues";
export { createLlmJudge, type JudgeAttempt, type JudgeOutcome, type LlmJudge, type LlmJudgeOptions } from "./judge";
export {
  buildJudgePacket,
  DEFAULT_PACKET_CHARS,
  MIN_PACKET_CHARS,
  type JudgePacket,
  type JudgePacketInput,
  type JudgePacketOptions,
  type JudgePacketSections,
} from "./packet";
export { canonicalId, parseJudgeVerdict, type VerdictParseOptions } from "./parse-verdict";
export { futureEnd } from "./render";
