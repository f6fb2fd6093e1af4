/**
 * Behavioural contracts (seed 000, Table 5 "Behavioral-contract loss"): instruction, policy,
 * schema or task-contract reads may govern later behaviour and are never collected; user
 * corrections and constraints ("do not replace the table header") keep their turn visible.
 */
const INSTRUCTION_FILES =
  /(?:^|\/)(?:AGENTS|CLAUDE|GEMINI|CONTRIBUTING|CONVENTIONS|README|SKILL|\.cursorrules|\.clinerules|copilot-instructions)(?:\.[\w]+)?$/i;
const CONTRACT_WORDS =
  /(?:^|[\/_.-])(?:schema|schemas|policy|policies|spec|specs|specification|contract|contracts|conventions|guidelines|instructions|rules)(?:[\/_.-]|$)/i;

/** Is `subject` (a path or URL a tool read) an instruction or contract file? */
export function isContractSubject(subject: string | undefined): boolean {
  if (!subject) return false;
  const path = subject.replace(/[?#].*$/, "");
  return INSTRUCTION_FILES.test(path) || CONTRACT_WORDS.test(path.split("/").slice(-2).join("/"));
}

const CONSTRAINT = /\b(?:do not|don't|dont|never|must not|mustn't|keep|instead|avoid|without (?:changing|touching|breaking)|make sure|only)\b/i;

/** Does the text state a constraint or correction that should govern later edits? */
export function hasUserConstraint(text: string): boolean {
  return CONSTRAINT.test(text);
}

/**
 * Harness notices that arrive as user messages (interrupt markers, task notifications, slash
 * commands) are not user constraints even when they contain the words.
 */
export function isHarnessNotice(text: string): boolean {
  return /^\s*(?:\[Request interrupted|<task-notification>|<command-name>|<local-command)/.test(text);
}

/** A summary carried over by an earlier compaction: it is the only copy of what came before. */
export function isCarriedSummary(text: string): boolean {
  return /^\s*This session is being continued from a previous conversation/.test(text);
}

/** A user turn whose request must stay visible (constraint, correction or carried summary). */
export function isGoverningRequest(text: string): boolean {
  return isCarriedSummary(text) || (!isHarnessNotice(text) && hasUserConstraint(text));
}
