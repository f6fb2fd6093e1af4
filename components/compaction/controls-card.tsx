"use client";

import type { PolicyInfo, SafeCut } from "@/server/compaction/compaction-api";
import { CutSlider } from "./cut-slider";
import { ParamsEditor } from "./params-editor";
import { PolicyPicker } from "./policy-picker";
import kbdStyles from "@/components/ui/kbd.module.css";
import fieldStyles from "./fields.module.css";
import styles from "./controls-card.module.css";

/** The prefix sits at this share of the default window (the replay protocol's 90% trigger level). */
export const DEFAULT_TRIGGER_LEVEL = 0.9;
export const defaultWindow = (prefixTokens: number) => Math.max(1, Math.floor(prefixTokens / DEFAULT_TRIGGER_LEVEL));

export interface ControlsCardProps {
  policies: readonly PolicyInfo[];
  policy: PolicyInfo;
  onPolicy(id: string): void;
  paramTexts: Record<string, string>;
  onParam(name: string, text: string): void;
  onResetParams(): void;
  cuts: readonly SafeCut[];
  cutIndex: number;
  onCut(index: number): void;
  messageCount: number;
  windowText: string;
  onWindow(text: string): void;
  windowInvalid: boolean;
  canRun: boolean;
  running: boolean;
  onRun(): void;
}

/** Policy, parameters, cut, window and Run. */
export function ControlsCard(props: ControlsCardProps) {
  const cut = props.cuts[props.cutIndex];
  const fallback = cut ? defaultWindow(cut.tokens) : 0;
  const window = props.windowText.trim() === "" ? fallback : Number(props.windowText);
  const share = cut && window > 0 ? Math.round((cut.tokens / window) * 100) : undefined;
  return (
    <section className={`card ${styles.controls}`} aria-label="Run settings">
      <PolicyPicker policies={props.policies} value={props.policy.id} onChange={props.onPolicy} />
      <CutSlider cuts={props.cuts} index={props.cutIndex} messageCount={props.messageCount} onChange={props.onCut} />
      <div>
        <label className={fieldStyles.fieldLabel} htmlFor="window-input">
          Window (tokens)
        </label>
        <input
          id="window-input"
          className={`input ${styles.windowInput}`}
          type="number"
          min={1}
          step={1}
          placeholder={fallback.toLocaleString("en-US")}
          value={props.windowText}
          aria-invalid={props.windowInvalid || undefined}
          aria-describedby="window-hint"
          onChange={(e) => props.onWindow(e.target.value)}
        />
        <div id="window-hint" className={fieldStyles.hint}>
          {props.windowInvalid ? (
            <span className="field-error">a whole number of tokens</span>
          ) : props.windowText.trim() === "" ? (
            "default: prefix at 90%"
          ) : (
            `prefix at ${share ?? "?"}%`
          )}
        </div>
      </div>
      <div className={styles.runCol}>
        <button
          type="button"
          className={`btn btn-primary ${styles.runButton}`}
          onClick={props.onRun}
          disabled={!props.canRun}
          aria-keyshortcuts="r"
          aria-label="Run"
          aria-busy={props.running || undefined}
        >
          {props.running ? "Running…" : "Run"} <kbd className={`${kbdStyles.kbd} ${styles.kbd}`}>r</kbd>
        </button>
      </div>
      <ParamsEditor policy={props.policy} texts={props.paramTexts} onChange={props.onParam} onReset={props.onResetParams} />
    </section>
  );
}
