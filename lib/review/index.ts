/**
 * The review studio's framework-free core (issue #5): label schemas and their version history,
 * human verdicts derived from dependency labels, queue building / leasing / overlap / navigation,
 * agreement between reviewers and between judges and people, and JSONL/CSV transfer.
 */
export * from "./label-schema";
export * from "./clock";
export * from "./history";
export * from "./human-dependencies";
export * from "./human-verdict";
export * from "./queue/items";
export * from "./queue/context-key";
export * from "./queue/build-items";
export * from "./queue/sample";
export * from "./queue/lease";
export * from "./queue/progress";
export * from "./queue/label-state";
export * from "./queue/navigation";
export * from "./agreement/inter-reviewer";
export * from "./agreement/ratings";
export * from "./agreement/judge-vs-human";
export * from "./agreement/no-impact-rates";
export * from "./agreement/ab-calibration";
export * from "./agreement/view-verdict-reference";
export * from "./transfer/issues";
export { CSV_COLUMNS, columnFor, type CellType, type CsvColumn } from "./transfer/csv-columns";
export { exportCsv, parseCsv, splitCsv } from "./transfer/csv";
export { exportJsonl, parseJsonl, type ParsedRecord } from "./transfer/jsonl";
export { importLabels, type ImportResult, type LabelFormat } from "./transfer/import";
export { toSpanAnnotations, type LabelQueues, type SpanAnnotation } from "./transfer/span-annotations";
