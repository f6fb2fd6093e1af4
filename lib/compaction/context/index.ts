/** Indexed context objects (seed 000): ids, spans, tokens and anchors over a canonical session. */
export * from "./objects";
export * from "./anchors";
export * from "./tool-names";
