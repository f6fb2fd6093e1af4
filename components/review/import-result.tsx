import type { ReactNode } from "react";

/** The outcome of a label or gold import: a status (or an alert) with every located problem listed. */
export interface ImportResultState {
  tone: "ok" | "error";
  text: string;
  lines?: string[];
}

export function ImportResult({ result, children }: { result: ImportResultState; children?: ReactNode }) {
  return (
    <div role={result.tone === "error" ? "alert" : "status"} className={`alert alert-${result.tone}`}>
      <p>
        {result.text}
        {children ? <> {children}</> : null}
      </p>
      {result.lines && result.lines.length > 0 ? (
        <ul>
          {result.lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
