import styles from "./token-bar.module.css";

/** A message's estimated tokens as a bar scaled to the session's largest message, plus the count. */
export function TokenBar({ tokens, max }: { tokens: number; max: number }) {
  const share = max > 0 ? Math.min(1, tokens / max) : 0;
  return (
    <span className={styles.tokenBar} title={`${tokens.toLocaleString("en-US")} estimated tokens (${(share * 100).toFixed(1)}% of the largest message)`}>
      <span className={styles.tokenTrack} aria-hidden="true">
        <span className={styles.tokenFill} style={{ width: `${Math.max(share * 100, tokens > 0 ? 1.5 : 0)}%` }} />
      </span>
      <span className={styles.tokenCount}>{tokens.toLocaleString("en-US")}</span>
    </span>
  );
}
