"use client";

import { formatDateTime } from "@/lib/util/format-date-time";
import { plural } from "@/lib/util/plural";
import type { CompactionView } from "@/server/trace/session/types";
import partStyles from "./part-view.module.css";
import textStyles from "./timeline-text.module.css";
import styles from "./compaction-divider.module.css";

const KIND_LABEL: Record<CompactionView["kind"], string> = {
  claude_code_compact_boundary: "Claude Code compact_boundary",
  codex_compacted: "Codex compacted",
  other: "compaction",
};

/**
 * A compaction the agent performed while the trace was recorded, drawn across the timeline where
 * it happened (before message `beforeMessage`), with its summary behind a toggle.
 */
export function CompactionDivider(props: { compaction: CompactionView; expanded: boolean; onToggle(): void }) {
  const { compaction, expanded, onToggle } = props;
  return (
    <section
      className={styles.compaction}
      data-testid="compaction-marker"
      data-before-message={compaction.beforeMessage}
      aria-label={`native compaction before message ${compaction.beforeMessage}`}
    >
      <div className={styles.compactionLine}>
        <span className={styles.compactionRule} aria-hidden="true" />
        <span className={styles.compactionLabel}>
          <strong>Native compaction</strong>
          <span>{KIND_LABEL[compaction.kind]}</span>
          {compaction.trigger ? <span>trigger: {compaction.trigger}</span> : null}
          {compaction.preTokens !== undefined ? <span>{plural(compaction.preTokens, "token")} before</span> : null}
          {compaction.timestamp ? <span className={textStyles.faintMono}>{formatDateTime(compaction.timestamp, { seconds: true })}</span> : null}
          {compaction.summary ? (
            <button type="button" className={partStyles.link} onClick={onToggle} aria-expanded={expanded}>
              {expanded ? "hide summary" : `show summary (${plural(compaction.summary.length, "char")})`}
            </button>
          ) : (
            <span className={textStyles.faint}>no summary in the trace</span>
          )}
        </span>
        <span className={styles.compactionRule} aria-hidden="true" />
      </div>
      {expanded && compaction.summary ? (
        <pre className={styles.compactionSummary} data-testid="compaction-summary">
          {compaction.summary}
        </pre>
      ) : null}
    </section>
  );
}
