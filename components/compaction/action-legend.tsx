import { ACTION_HINTS, ACTION_LABELS, ACTION_ORDER } from "./action-palette";
import labelStyles from "./run-labels.module.css";
import styles from "./action-legend.module.css";

/** The colour key: one swatch per action, plus how inserted messages look. */
export function ActionLegend() {
  return (
    <div className={styles.legend} role="list" aria-label="Colour legend" data-testid="legend">
      <span className={labelStyles.legendTitle}>Legend</span>
      {ACTION_ORDER.map((action) => (
        <span key={action} role="listitem" className={styles.legendItem} title={ACTION_HINTS[action]}>
          <span className={`${labelStyles.swatch} ${styles.swatch}`} data-action={action} />
          {ACTION_LABELS[action]}
        </span>
      ))}
      <span role="listitem" className={styles.legendItem} title="a message the policy inserted (its summary)">
        <span className={`${labelStyles.swatch} ${styles.swatch} ${styles.legendSummary}`} />
        summary
      </span>
      <span role="listitem" className={styles.legendItem} title="a control-plane reminder the harness appended (fold recovery pointer)">
        <span className={`${labelStyles.swatch} ${styles.swatch} ${styles.legendReminder}`} />
        reminder
      </span>
    </div>
  );
}
