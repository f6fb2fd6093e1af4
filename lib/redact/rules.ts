/**
 * The secret detectors. Every pattern is built to run in linear time on hostile input: each starts
 * with a literal prefix guarded by a lookbehind (so a long run of token characters is entered at
 * most once), then one greedy character-class run that cannot overlap what follows it, with no
 * nested or adjacent ambiguous quantifiers. Bounded runs ({1,256}) cap what backtracking remains.
 * tests/unit/redact/adversarial.test.ts checks the time on megabyte inputs built to defeat them.
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

export interface Rule {
  kind: SecretKind;
  /** Global regex; the secret is capture group `group` (0 = the whole match). */
  pattern: RegExp;
  group: number;
  /** Optional veto on the captured secret (placeholders, code identifiers). */
  accept?: (secret: string) => boolean;
}

const B = "(?<![A-Za-z0-9_-])";

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
  { kind: "url_password", pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s/?#@:]{1,256}:([^\s/?#@]{1,256})@/g, group: 1, accept: (s) => !/^\$|^\{\{|^<|^\*+$/.test(s) },
  {
    kind: "password_assignment",
    pattern: /(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)(?![A-Za-z0-9_])["']?[ \t]*(?:=[ \t]*(?:"([^"\\\r\n]{3,256})"|'([^'\\\r\n]{3,256})'|([^\s"'`,;&()<>{}[\]\\]{3,256}))|:[ \t]*(?:"([^"\\\r\n]{3,256})"|'([^'\\\r\n]{3,256})'))/gi,
    group: -1,
    accept: isSecretValue,
  },
  { kind: "email", pattern: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g, group: 0 },
];

/**
 * Whether an assigned value looks like a real secret rather than code or a placeholder:
 * `password=self.password`, `token=get_token(`, `secret=$SECRET`, `password="<your password>"`,
 * `token: "***"` and plain identifiers (`password=password`) are left alone.
 */
function isSecretValue(value: string): boolean {
  if (/^(?:\$|\{\{|<|%|\*+$|x{3,}$|\[REDACTED)/i.test(value)) return false;
  if (/^(?:null|none|true|false|undefined|nil|empty|required|optional|string|changeme)$/i.test(value)) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(value) && !/[0-9]/.test(value)) return false;
  return true;
}
