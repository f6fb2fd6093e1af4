/**
 * An admin's allow-list: values that are never secrets even though a rule matches them (a test API
 * key used in fixtures, a documented demo password). Each entry is an exact value, or `/pattern/`
 * (flags `i`, `u` allowed) that must match the whole value. Entries are checked against the value a
 * rule captured (the secret itself, not the line around it), so an entry cannot hide other text.
 */
export interface AllowList {
  /** Whether `secret` is allowed, i.e. must stay as it is. */
  allows(secret: string): boolean;
  /** The entries as given, for display and storage. */
  readonly entries: readonly string[];
}

/** Why one entry is refused: its 1-based position and a message naming what is wrong. */
export interface AllowListIssue {
  entry: number;
  message: string;
}

/** At most this many entries, each at most this long: the list is checked against every finding. */
export const MAX_ALLOW_ENTRIES = 200;
export const MAX_ALLOW_ENTRY_LENGTH = 500;

const REGEX_ENTRY = /^\/(.+)\/([a-z]*)$/s;

/** Secrets of unlike shapes: a pattern matching all of them is no allow-list entry but "allow all". */
const UNLIKE_SECRETS = ["hunter2", "sk-proj-Qz8vN3kT5mW1xR7yL2pA9dF4gH6jK0cB", "AKIAIOSFODNN7EXAMPLE", "dev@example.com", "correct horse"];

/**
 * Checks and compiles entries. A regex entry must compile, may use only the `i` and `u` flags and
 * must not match any value (`/.*\/`, `/.+\/` would switch redaction off without saying so).
 */
export function compileAllowList(entries: readonly string[]): { list: AllowList; issues: AllowListIssue[] } {
  const issues: AllowListIssue[] = [];
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  if (entries.length > MAX_ALLOW_ENTRIES) issues.push({ entry: MAX_ALLOW_ENTRIES + 1, message: `at most ${MAX_ALLOW_ENTRIES} entries` });
  entries.slice(0, MAX_ALLOW_ENTRIES).forEach((raw, index) => {
    const entry = index + 1;
    if (raw.length === 0) return issues.push({ entry, message: "is empty" });
    if (raw.length > MAX_ALLOW_ENTRY_LENGTH) return issues.push({ entry, message: `is longer than ${MAX_ALLOW_ENTRY_LENGTH} characters` });
    const regex = REGEX_ENTRY.exec(raw);
    if (!regex) return void exact.add(raw);
    const [, source, flags] = regex as unknown as [string, string, string];
    if (/[^iu]/.test(flags)) return issues.push({ entry, message: `has flags "${flags}"; only i and u are allowed` });
    let pattern: RegExp;
    try {
      pattern = new RegExp(`^(?:${source})$`, flags);
    } catch (error) {
      return issues.push({ entry, message: `is not a valid regular expression (${error instanceof Error ? error.message : String(error)})` });
    }
    if (pattern.test("") || UNLIKE_SECRETS.every((s) => pattern.test(s)))
      return issues.push({ entry, message: "matches any value, so it would switch redaction off" });
    patterns.push(pattern);
  });
  const list: AllowList = {
    entries: [...entries],
    allows: (secret) => exact.has(secret) || patterns.some((p) => p.test(secret)),
  };
  return { list, issues };
}

/** The allow-list of stored, already validated entries (an invalid one is skipped, never fatal). */
export function allowListOf(entries: readonly string[]): AllowList {
  return compileAllowList(entries).list;
}
