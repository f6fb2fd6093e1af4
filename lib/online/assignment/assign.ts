import { fmix32, hashString } from "../../scenario/prng";
import type { Group } from "../usage/schema";

/**
 * How calls are put into treatment and control.
 * - `column`: the log's own group column (labels mapped by `labelToGroup`);
 * - `email-pivot`: seed 000 Table 2 — an account whose e-mail's first character is at or after the
 *   pivot is treatment, earlier accounts are control. Operational, NOT randomised: accounts are
 *   split by name, and names correlate with language, company and sign-up era;
 * - `hash`: a salted hash of the account id, a pseudo-random split that is stable across runs.
 */
export type AssignRule = { kind: "column"; column: string } | { kind: "email-pivot"; pivot: string } | { kind: "hash"; salt: string; treatmentShare?: number };

export const DEFAULT_PIVOT = "o";

/** Parses the CLI form `column:NAME | email-pivot:CHAR | hash:SALT`; throws RangeError with the expected form. */
export function parseAssignRule(spec: string): AssignRule {
  const colon = spec.indexOf(":");
  const kind = colon === -1 ? spec : spec.slice(0, colon);
  const arg = colon === -1 ? "" : spec.slice(colon + 1);
  if (kind === "column" && arg !== "") return { kind, column: arg };
  if (kind === "email-pivot") {
    const pivot = arg === "" ? DEFAULT_PIVOT : arg;
    if ([...pivot].length !== 1) throw new RangeError(`email-pivot takes one character, got ${JSON.stringify(arg)}`);
    return { kind, pivot };
  }
  if (kind === "hash" && arg !== "") return { kind, salt: arg };
  throw new RangeError(`expected column:NAME, email-pivot:CHAR or hash:SALT, got ${JSON.stringify(spec)}`);
}

/** The rule in the CLI form `parseAssignRule` reads back (`column:group`, `email-pivot:o`, `hash:s1`). */
export function formatAssignRule(rule: AssignRule): string {
  switch (rule.kind) {
    case "column":
      return `column:${rule.column}`;
    case "email-pivot":
      return `email-pivot:${rule.pivot}`;
    case "hash":
      return `hash:${rule.salt}`;
  }
}

/**
 * The rule a report uses when the user chose none. A log that says which group each call belongs
 * to is the experiment's own truth, so its group column wins over seed 000's e-mail pivot (which
 * would re-split the accounts by name and can put them all in one group). The column counts only
 * when the first readable call carries a label naming a group (`labelToGroup`): a column that is
 * mapped but empty, as in usage built from traces, keeps the pivot. The CLI decides on the first
 * row it reads and the studio on the stored slot holding that row, so both pick the same rule.
 */
export function defaultAssignRule(groupColumn: string | undefined, firstGroupLabel: string | undefined): AssignRule {
  if (groupColumn !== undefined && firstGroupLabel !== undefined && labelToGroup(firstGroupLabel) !== null) return { kind: "column", column: groupColumn };
  return { kind: "email-pivot", pivot: DEFAULT_PIVOT };
}

/** Whether the rule is a randomised experiment (only the hash split is). */
export function isRandomised(rule: AssignRule): boolean {
  return rule.kind === "hash";
}

/**
 * Seed 000's e-mail pivot rule, defined precisely:
 * 1. take the account string with leading whitespace removed; empty → `null` (unassignable);
 * 2. its first Unicode code point, lower-cased (e-mail local parts are treated case-insensitively,
 *    so `Olga@…` and `olga@…` land in the same group); the pivot is lower-cased the same way;
 * 3. treatment when that code point ≥ the pivot's code point, else control.
 * Consequences for a letter pivot such as `o`: digits, `+`, `-`, `.`, `_` (all below `a` in
 * Unicode) are control; non-ASCII letters (`é`, `ø`, CJK) sort after `z` and are treatment.
 */
export function assignByEmailPivot(account: string, pivot: string = DEFAULT_PIVOT): Group | null {
  const first = account.trimStart().codePointAt(0);
  const p = pivot.toLowerCase().codePointAt(0);
  if (first === undefined || p === undefined) return null;
  const folded = String.fromCodePoint(first).toLowerCase().codePointAt(0)!;
  return folded >= p ? "treatment" : "control";
}

/**
 * Salted hash split: FNV-1a of `salt + "\u0000" + account`, mixed with murmur3's finaliser, read
 * as a uniform number in [0, 1); below `treatmentShare` (default ½) is treatment. Stable across
 * runs and machines; a different salt gives an independent split.
 */
export function assignByHash(account: string, salt: string, treatmentShare = 0.5): Group {
  const u = fmix32(hashString(`${salt}\u0000${account}`)) / 0x1_0000_0000;
  return u < treatmentShare ? "treatment" : "control";
}

const TREATMENT_LABELS = new Set(["treatment", "treated", "test", "variant", "experiment", "self-gc", "selfgc", "on", "b", "1", "true", "yes"]);
const CONTROL_LABELS = new Set(["control", "baseline", "holdout", "off", "a", "0", "false", "no"]);

/** An explicit group label → group (case-insensitive); `null` for a label that names neither. */
export function labelToGroup(label: string): Group | null {
  const l = label.trim().toLowerCase();
  return TREATMENT_LABELS.has(l) ? "treatment" : CONTROL_LABELS.has(l) ? "control" : null;
}

/** Human description of a rule, for reports. */
export function describeRule(rule: AssignRule): string {
  switch (rule.kind) {
    case "column":
      return `group column ${JSON.stringify(rule.column)}`;
    case "email-pivot":
      return `account e-mail first character ≥ ${JSON.stringify(rule.pivot)} → treatment (seed 000 Table 2; not randomised)`;
    case "hash":
      return `salted hash split (salt ${JSON.stringify(rule.salt)}, treatment share ${rule.treatmentShare ?? 0.5})`;
  }
}
