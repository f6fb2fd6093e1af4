import { codexPolicy } from "../summary/codex";
import { fixedIntervalSummaryPolicy } from "../summary/fixed-interval-summary";
import { geminiCliPolicy } from "../summary/gemini-cli";
import { opencodePolicy } from "../summary/opencode";
import { openhandsSummarizingPolicy } from "../summary/openhands-summarizing";
import { preserveUserMessagesPolicy } from "../summary/preserve-user-messages";
import { recentTokenFractionPolicy } from "../summary/recent-token-fraction";
import { recentTurnsPolicy } from "../summary/recent-turns";
import { selfCompactPolicy } from "../summary/self-compact";
import type { Policy } from "../types";

/**
 * Summary-family policies (seed 001's three split-point strategies, seed 003's fixed-interval and
 * Self-Compact, and four real harnesses), registered in lib/compaction/policies/registry.ts. Ids are a public
 * contract.
 */
export const SUMMARY_POLICIES: readonly Policy[] = [
  preserveUserMessagesPolicy,
  recentTokenFractionPolicy,
  recentTurnsPolicy,
  fixedIntervalSummaryPolicy,
  selfCompactPolicy,
  codexPolicy,
  geminiCliPolicy,
  opencodePolicy,
  openhandsSummarizingPolicy,
];
