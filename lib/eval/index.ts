/**
 * Public surface of the replay evaluation: the cut protocol, suites, the deterministic dependency
 * judge and the per-cut / per-suite evaluation that runs policies at replay cuts and judges them.
 */
export {
  CutLevelsSchema,
  DEFAULT_CUT_LEVELS,
  DENSE_CUT_LEVELS,
  MAX_CUT_LEVELS,
  cutLevelShares,
  formatCutLevels,
  isDefaultCutLevels,
  parseCutLevelsText,
} from "./cut-levels";
export { DEFAULT_SHARES, replayCuts, windowForCut, type CutReason, type ReplayCut, type ReplayCutOptions } from "./cut-protocol";
export {
  HardSetOptionsSchema,
  SuiteFilterSchema,
  SuiteSpecSchema,
  hardSet,
  matchesFilter,
  rankHardSet,
  selectSuite,
  selectSummaries,
  toolPressure,
} from "./suites";
export { filterFieldErrors, matchesSummary } from "./suite-filter";
export { FILTER_KEYS, formatSuiteFilterText, parseSuiteFilterText, SuiteFilterSyntaxError, type FilterKey } from "./suite-filter-text";
export { SESSION_SUMMARY_VERSION, summarizeSession, type SessionSummary } from "./session-summary";
export type { HardSetOptions, SuiteFilter, SuiteSpec, ToolPressure } from "./suites";
export { extractDependencies, MAX_OCCURRENCES, type ExtractOptions } from "./judge/dependencies";
export { checkView, type CheckViewInput } from "./judge/check-view";
export { INSTRUCTION_FILE_RE, categorize, slotKey } from "./judge/categories";
export { createDependencyMatcher, type DependencyMatcher } from "./judge/view-texts";
export { judgeDependencies, MIN_FUTURE_CHARS, MIN_FUTURE_STEPS, type JudgeDependenciesInput } from "./judge/dependency-judge";
export { dimensionScore } from "./judge/judge-scores";
export * from "./judge/verdict-schema";
export { evaluateCut, type CutEvaluation, type EvaluateCutInput } from "./evaluate-cut";
export { evaluateSuite, unitKey, type EvaluateSuiteOptions, type SuiteItem, type SuitePolicy, type SuiteProgress } from "./evaluate-suite";
export * from "./judge/types";
export { aggregatePolicies, comparePolicies, toRecord, type EvaluationRecord, type PolicyAggregate } from "./aggregate";
export { aggregateBy, bySession, type GroupAggregate } from "./aggregate-by";
export { classifyWorkload, DOMINANT_SHARE, sessionWorkload, toolClass, WORKLOAD_CLASSES, WORKLOADS } from "./workload";
export type { ToolUse, Workload, WorkloadClass, WorkloadMix } from "./workload";
