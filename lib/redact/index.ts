/** Secret redaction for trace content: detectors, session redaction, raw line redaction, previews. */
export { findSecrets, applySpans, placeholder, type RedactOptions, type SecretSpan } from "./find-secrets";
export { redactSession, type Redaction } from "./redact-session";
export { redactLines, type LineRedaction } from "./redact-lines";
export { RULES, type SecretKind } from "./rules";
export { SECRET_KINDS, isSecretKind, findPlaceholders } from "./kinds";
export { compileAllowList, allowListOf, MAX_ALLOW_ENTRIES, MAX_ALLOW_ENTRY_LENGTH, type AllowList, type AllowListIssue } from "./allow-list";
export { DEFAULT_RULES, redactOptionsOf, type RedactionRules } from "./options";
export { previewRedaction, type PreviewFinding, type RedactionPreview } from "./preview-redaction";
