import { allowListOf } from "./allow-list";
import type { RedactOptions } from "./find-secrets";
import type { SecretKind } from "./rules";

/**
 * The admin's redaction choices as plain data (JSON-safe): what the server stores, hands to the
 * upload page for its in-browser preview and turns into RedactOptions for the redactor, so the
 * preview and the stored file are redacted by the same rules.
 */
export interface RedactionRules {
  emails: boolean;
  disabled: readonly SecretKind[];
  /** Allow-list entries as typed (exact values or `/regex/`); invalid ones are skipped. */
  allow: readonly string[];
}

/** The defaults: every rule but e-mail, nothing allowed (also `tracefold redact`'s defaults). */
export const DEFAULT_RULES: RedactionRules = { emails: false, disabled: [], allow: [] };

/** RedactOptions for the redactor (the allow-list compiled once). */
export function redactOptionsOf(rules: RedactionRules): RedactOptions {
  return { emails: rules.emails, disabled: rules.disabled, allow: allowListOf(rules.allow) };
}
