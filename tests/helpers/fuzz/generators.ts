import type fc from "fast-check";
import type { FormatId } from "../../../lib/trace/model";
import { AGENT_RUN_GENERATORS } from "./agent-run-generators";
import { API_LOG_GENERATORS } from "./api-log-generators";
import type { Generated } from "./arbitrary-values";
import { CODING_CLI_GENERATORS } from "./coding-cli-generators";
import { GEMINI_GENERATORS } from "./gemini-generators";
import { SPAN_GENERATORS } from "./span-generators";

export type { Generated } from "./arbitrary-values";

/**
 * Structurally plausible traces per format, built from the fields each importer reads, with
 * values that are usually right and sometimes odd (empty, unicode, control characters, ids that
 * link or dangle). Each arbitrary yields the file's text plus a file name the format would have.
 * One arbitrary per format, from the family files beside this one; the JSON document formats get
 * one top-level shape each.
 */
export const GENERATORS: Record<FormatId, fc.Arbitrary<Generated>> = {
  ...CODING_CLI_GENERATORS,
  ...GEMINI_GENERATORS,
  ...AGENT_RUN_GENERATORS,
  ...SPAN_GENERATORS,
  ...API_LOG_GENERATORS,
};
