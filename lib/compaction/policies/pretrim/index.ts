/** Seed 001's five pre-trim moves plus the harnesses' per-item caps, composable with `runPretrim`. */
export * from "./types";
export * from "./drop-oldest-until-fits";
export * from "./drop-agent-items";
export * from "./truncate-to-last-lines";
export * from "./cap-tool-response-budget";
export * from "./mark-old-tool-outputs-cleared";
export * from "./cap-item-length";
