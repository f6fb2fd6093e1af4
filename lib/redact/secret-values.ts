import type { RuleContext } from "./rules";

/**
 * The vetoes of the two context rules (password_assignment, url_password): the regex finds a
 * password-like key or URL userinfo, these decide whether the value is a secret a person would
 * redact, rather than code (`token = Base.url_encode64(:crypto.strong_rand_bytes(24))`), an env
 * lookup, a template placeholder or an ordinary word. Pure and linear in the value.
 */

/** Keys whose values people choose: any literal is a secret, words and phrases included. */
const PASSWORD_KEY = /^(?:password|passwd|passphrase|pwd)$/i;

/** Words that stand for a value rather than being one. */
const PLACEHOLDER_WORD =
  /^(?:null|none|nil|undefined|true|false|empty|blank|required|optional|string|str|text|bytes|changeme|change[_-]?me|password|passwd|pass|pwd|secret|token|api[_-]?key|key|redacted|hidden|masked|example|sample|placeholder|dummy|fake|todo|tbd|n\/a|unset|default)$/i;

/**
 * Placeholders and masks: env and template references (`$X`, `${X}`, `{{x}}`, `#{x}`, `%(x)s`,
 * `%X%`, `<your key>`, `{0}`), masked values (`***`, `sk-…`, `xxxx`), a run of one character, a
 * `[REDACTED…]` placeholder, "your password here"-style prompts.
 */
export function isPlaceholder(value: string): boolean {
  if (/^(?:\$|<|%|\[REDACTED|your[\s_-]|my[\s_-]|enter[\s_-]|insert[\s_-])/i.test(value)) return true;
  if (/\$\{|\{\{|\}\}|#\{|%\(|%[sd]\b|\{\d*\}|<%|\*\*\*|•|…|\.\.\.|x{4,}/i.test(value)) return true;
  if (/^(.)\1*$/.test(value)) return true;
  return PLACEHOLDER_WORD.test(value);
}

/** A path (a working directory in an env dump: `PWD=/home/me`), never a password. */
function isPath(value: string): boolean {
  return /^(?:\/|~\/|\.{1,2}\/|[A-Za-z]:[\\/])/.test(value);
}

/**
 * Whether a bare (unquoted) value is a literal: not a number, not a plain identifier or keyword
 * (`password=password`, `token: string`), not a member chain (`self.password`, `os.environ`,
 * `Base.url_encode64`, `Foo::bar`).
 */
function isBareLiteral(value: string): boolean {
  if (/^\d+$/.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*$/.test(value) && !/\d/.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  return true;
}

/**
 * Whether the text after a value goes on as an expression: a call or index (`(`, `[`), a member
 * access (`.upper`), concatenation or an operator (`+`, `||`, `&&`, `??`, `%`, a ternary `?`).
 */
function continuesExpression(after: string): boolean {
  return /^[ \t]*(?:[+([]|\.[A-Za-z_$(]|\|\||&&|\?\?|\?[ \t]|%[ \t]|::)/.test(after);
}

/**
 * Whether a token-like key's value (token, secret, api_key…) looks machine-made, as credentials
 * are: at least 8 characters without spaces, with letters and digits (or 20+ characters mixing
 * cases). `'proxy-handled'`, `'test-key'`, `YOUR_API_KEY` and `"HelloWorld"` are not.
 */
function looksGenerated(value: string): boolean {
  if (value.length < 8 || /\s/.test(value)) return false;
  const letters = /[A-Za-z]/.test(value);
  const digits = /\d/.test(value);
  const mixedCase = /[a-z]/.test(value) && /[A-Z]/.test(value);
  return (letters && digits) || (value.length >= 20 && mixedCase);
}

/**
 * password_assignment's veto. The captured value must be a literal (quoted, or a bare token that is
 * no identifier, number or member chain), not followed by more expression, not a placeholder or
 * path; and for keys other than password-like ones, it must look generated (looksGenerated).
 */
export function isAssignedSecret(value: string, { match, text }: RuleContext): boolean {
  const key = match[1] ?? "";
  const bare = match[5] !== undefined;
  if (continuesExpression(text.slice(match.index + match[0].length, match.index + match[0].length + 8))) return false;
  if (isPlaceholder(value) || isPath(value)) return false;
  if (bare && !isBareLiteral(value)) return false;
  return PASSWORD_KEY.test(key) || looksGenerated(value);
}

/** url_password's veto: `user:$PASSWORD@`, `user:***@`, `user:password@` are placeholders. */
export function isUrlPassword(value: string): boolean {
  return !isPlaceholder(value);
}
