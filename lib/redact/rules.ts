import { isAssignedSecret, isUrlPassword } from "./secret-values";

/**
 * The secret detectors. Every pattern is built to run in linear time on hostile input: each starts
 * with a literal prefix guarded by a lookbehind (so a long run of token characters is entered at
 * most once), then one greedy character-class run that cannot overlap what follows it, with no
 * nested or adjacent ambiguous quantifiers. Bounded runs ({1,256}) cap what backtracking remains.
 * tests/unit/redact/adversarial.test.ts checks the time on megabyte inputs built to defeat them, and
 * tests/unit/redact/corpus.test.ts checks every hit over the real traces against a reviewed list.
 */
export type SecretKind =
  | "private_key"
  | "anthropic_key"
  | "openai_key"
  | "aws_access_key"
  | "github_token"
  | "google_api_key"
  | "slack_token"
  | "stripe_key"
  | "jwt"
  | "bearer_token"
  | "basic_auth"
  | "url_password"
  | "password_assignment"
  | "email";

/** What a rule's veto sees besides the captured secret: the whole match and the text it is in. */
export interface RuleContext {
  match: RegExpExecArray;
  text: string;
}

export interface Rule {
  kind: SecretKind;
  /** Global regex. */
  pattern: RegExp;
  /** The capture group holding the secret (0 = the whole match), or several: the first that matched. */
  group: number | readonly number[];
  /** Optional veto on the captured secret (placeholders, code, ordinary data). */
  accept?: (secret: string, context: RuleContext) => boolean;
}

const B = "(?<![A-Za-z0-9_-])";

/**
 * URL userinfo characters (RFC 3986 unreserved, percent-encoded and most sub-delims): no quotes,
 * braces, commas or parentheses, so JSON like `"url":"https://x.com","logo":{"@type"` is no URL
 * with a password. A password may also hold `:`; the user may not (the first `:` splits them).
 */
const USER = "[A-Za-z0-9._~%!$&*+=-]{1,256}";
const PASS = "[A-Za-z0-9._~%!$&*+=:-]{1,256}";

/**
 * A password-like key (quoted or not, also inside a longer name: DB_PASSWORD, apiKey, accessToken),
 * then `=`, `:=` or `:`, then a literal: a double-quoted string (its quotes JSON-escaped up to three
 * levels deep, as code inside a JSONL line is), a single-quoted string, or a bare token. Whether the
 * literal is a secret rather than code or a placeholder is decided by isAssignedSecret.
 */
const ASSIGNMENT = new RegExp(
  String.raw`(password|passwd|passphrase|pwd|secret[_-]?key|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)(?![A-Za-z0-9_])(?:\\{0,3}["'])?[ \t]*(?::=|=|:)[ \t]*(?:(\\{0,3})"([^"\\\r\n]{3,256})\2"|'([^'\\\r\n]{3,256})'|([A-Za-z0-9_+][^\s"'${"`"},;&()<>{}[\]\\]{2,255}))`,
  "gi",
);

/**
 * An e-mail address. It may start right after a `\n`/`\t`/`\r` escape but not after any other
 * backslash (`\n@pytest.mark.parametrize` is a decorator, not `n@pytest.mark.parametrize`); the
 * local part is dot-separated words (never ending in a dot: `Promise.@resolve.bind`); and it may not
 * run on into a path or a host:path (`kerberos@microsoft.azure/autorest`, `git@github.com:org/repo`).
 */
const EMAIL =
  /(?:(?<=\\[nrt])|(?<![A-Za-z0-9._%+\\-]))[A-Za-z0-9_%+-]{1,64}(?:\.[A-Za-z0-9_%+-]{1,64})*@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}(?![A-Za-z0-9-]|\.[A-Za-z0-9]|[/:@][^\s])/g;

/** In priority order: when two findings overlap, the earlier rule wins. */
export const RULES: readonly Rule[] = [
  { kind: "anthropic_key", pattern: new RegExp(`${B}sk-ant-[A-Za-z0-9_-]{20,}`, "g"), group: 0 },
  { kind: "stripe_key", pattern: new RegExp(`${B}(?:sk|rk)_live_[A-Za-z0-9]{16,}`, "g"), group: 0 },
  { kind: "openai_key", pattern: new RegExp(`${B}sk-[A-Za-z0-9_-]{20,}`, "g"), group: 0 },
  { kind: "aws_access_key", pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, group: 0 },
  { kind: "github_token", pattern: new RegExp(`${B}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`, "g"), group: 0 },
  { kind: "google_api_key", pattern: new RegExp(`${B}AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`, "g"), group: 0 },
  { kind: "slack_token", pattern: new RegExp(`${B}xox[abposr]-[A-Za-z0-9-]{10,}`, "g"), group: 0 },
  { kind: "jwt", pattern: new RegExp(`${B}eyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{10,}`, "g"), group: 0 },
  { kind: "bearer_token", pattern: /(?<![A-Za-z])[Bb]earer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)/g, group: 1 },
  { kind: "basic_auth", pattern: /(?<![A-Za-z])[Bb]asic[ \t]+([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])/g, group: 1, accept: (s) => /[0-9+/=]/.test(s) },
  {
    kind: "url_password",
    // scheme://user:password@host — a non-empty user and password, and a host right after the @.
    pattern: new RegExp(`(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}://${USER}:(${PASS})@(?=[A-Za-z0-9[])`, "g"),
    group: 1,
    accept: isUrlPassword,
  },
  { kind: "password_assignment", pattern: ASSIGNMENT, group: [3, 4, 5], accept: isAssignedSecret },
  { kind: "email", pattern: EMAIL, group: 0 },
];
