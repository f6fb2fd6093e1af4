import type { ReactNode } from "react";
import { findPlaceholders } from "@/lib/redact/kinds";
import styles from "./redaction-marker.module.css";

/**
 * Where a secret was redacted before the trace was stored: the `[REDACTED:<kind>]` token shown as
 * a badge (same text, so copying the message copies what is stored), with a title saying what it is.
 */
export function RedactionMarker({ kind }: { kind: string }) {
  return (
    <span
      className={styles.redacted}
      data-testid="redaction-marker"
      data-kind={kind}
      title={`Redacted on upload: a secret of kind ${kind} stood here; its value was not stored`}
    >
      [REDACTED:{kind}]
    </span>
  );
}

/**
 * `text` as React text nodes with every known `[REDACTED:<kind>]` token as a RedactionMarker; the
 * text between tokens goes through `plain` (search highlighting). Never HTML.
 */
export function withRedactionMarkers(text: string, plain: (segment: string, key: string) => ReactNode): ReactNode {
  const tokens = findPlaceholders(text);
  if (tokens.length === 0) return plain(text, "t0");
  const out: ReactNode[] = [];
  let at = 0;
  for (const token of tokens) {
    if (token.start > at) out.push(plain(text.slice(at, token.start), `t${at}`));
    out.push(<RedactionMarker key={`r${token.start}`} kind={token.kind} />);
    at = token.end;
  }
  if (at < text.length) out.push(plain(text.slice(at), `t${at}`));
  return out;
}
