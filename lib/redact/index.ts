/** Secret redaction for trace content: detectors, session redaction, raw line redaction. */
export { findSecrets, applySpans, placeholder, type RedactOptions, type SecretSpan } from "./find-secrets";
export { redactSession, type Redaction } from "./redact-session";
export { redactLines, type LineRedaction } from "./redact-lines";
export { RULES, type SecretKind } from "./rules";
