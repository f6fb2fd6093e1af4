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
} from "./cuts/cut-levels";
export { DEFAULT_SHARES, replayCuts, windowForCut, type CutReason, type ReplayCut, type ReplayCutOptions } from "./cuts/cut-protocol";
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
} from "./suites/suites";
export { filterFieldErrors, matchesSummary } from "./suites/suite-filter";
export { FILTER_KEYS, formatSuiteFilterText, parseSuiteFilterText, SuiteFilterSyntaxError, type FilterKey } from "./suites/suite-filter-text";
export { SESSION_SUMMARY_VERSION, summarizeSession, type SessionSummary } from "./suites/session-summary";
export type { HardSetOptions, SuiteFilter, SuiteSpec, ToolPressure } from "./suites/suites";
export { extractDependencies, MAX_OCCURRENCES, type ExtractOptions } from "./judge/dependencies";
export { checkView, type CheckViewInput } from "./judge/check-view";
export { INSTRUCTION_FILE_RE, categorize, slotKey } from "./judge/categories";
export { createDependencyMatcher, type DependencyMatcher } from "./judge/view-texts";
export { judgeDependencies, MIN_FUTURE_CHARS, MIN_FUTURE_STEPS, type JudgeDependenciesInput } from "./judge/dependency-judge";
export { dimensionScore } from "./judge/judge-scores";
export * from "./judge/verdict-schema";
export { evaluateCut, type CutEvaluation, type EvaluateCutInput } from "./runner/evaluate-cut";
export { evaluateSuite, unitKey, type EvaluateSuiteOptions, type SuiteItem, type SuitePolicy, type SuiteProgress } from "./runner/evaluate-suite";
export * from "./judge/types";
export { aggregatePolicies, comparePolicies, toRecord, type EvaluationRecord, type PolicyAggregate } from "./aggregate/aggregate";
export { aggregateBy, bySession, type GroupAggregate } from "./aggregate/aggregate-by";
export { classifyWorkload, DOMINANT_SHARE, sessionWorkload, toolClass, WORKLOAD_CLASSES, WORKLOADS } from "./suites/workload";
export type { ToolUse, Workload, WorkloadClass, WorkloadMix } from "./suites/workload";
