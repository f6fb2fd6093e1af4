import type { SecretKind } from "./rules";

/**
 * Every kind of secret, in the order the admin page lists its switches, with what each rule looks
 * for. The placeholder `[REDACTED:<kind>]` names the kind, so these ids are part of the stored data.
 */
export const SECRET_KINDS: readonly { kind: SecretKind; label: string }[] = [
  { kind: "private_key", label: "PEM private keys (-----BEGIN … PRIVATE KEY-----), raw or \\n-escaped" },
  { kind: "anthropic_key", label: "Anthropic API keys (sk-ant-…)" },
  { kind: "openai_key", label: "OpenAI-style API keys (sk-…)" },
  { kind: "aws_access_key", label: "AWS access key ids (AKIA…, ASIA…)" },
  { kind: "github_token", label: "GitHub tokens (ghp_…, github_pat_…)" },
  { kind: "google_api_key", label: "Google API keys (AIza…)" },
  { kind: "slack_token", label: "Slack tokens (xox…)" },
  { kind: "stripe_key", label: "Stripe live keys (sk_live_…, rk_live_…)" },
  { kind: "jwt", label: "JSON Web Tokens (eyJ….eyJ….…)" },
  { kind: "bearer_token", label: "Bearer tokens (Authorization: Bearer …)" },
  { kind: "basic_auth", label: "Basic auth credentials (Authorization: Basic …)" },
  { kind: "url_password", label: "Passwords in URLs (scheme://user:password@host)" },
  { kind: "password_assignment", label: 'Assigned passwords and tokens (password = "…", API_KEY=…, "token": "…")' },
  { kind: "email", label: "E-mail addresses (personal data; off unless an admin turns it on)" },
];

/** Whether `value` names a kind (for input from forms and the command line). */
export function isSecretKind(value: string): value is SecretKind {
  return SECRET_KINDS.some((k) => k.kind === value);
}

/**
 * `[REDACTED:<kind>]` tokens in stored text, for the session view's markers: the kind and where the
 * token is. Only known kinds count, so a trace's own `[REDACTED:something]` stays plain text.
 */
export function findPlaceholders(text: string): { kind: SecretKind; start: number; end: number }[] {
  const found: { kind: SecretKind; start: number; end: number }[] = [];
  const pattern = /\[REDACTED:([a-z_]{1,40})\]/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const kind = match[1]!;
    if (isSecretKind(kind)) found.push({ kind, start: match.index, end: match.index + match[0].length });
  }
  return found;
}
