"use client";

import type { PointerStyle } from "@/lib/compaction/projection/pointers";
import { SWEEP_PRESETS } from "./sweep-field";

/**
 * The new-run form's harness settings — the same for every policy of the run:
 * - pointer style of every fold (`semantic` by default, or `plain`), each explained in one line;
 * - matched budgets: every policy also compacts, at each cut, to the view size one chosen policy
 *   reached there (default: self-gc when it is chosen, else off);
 * - a budget sweep: whole percents of each prefix removed, every policy also run at each, for the
 *   trade-off curves (presets, or typed; errors per budget, in percent).
 */
export function HarnessFields(props: {
  policies: string[];
  pointers: PointerStyle;
  onPointers: (style: PointerStyle) => void;
  match: string;
  onMatch: (choice: string) => void;
  sweep: string;
  onSweep: (text: string) => void;
  sweepErrors: string[];
  matchErrors: string[];
}) {
  const { policies, pointers, match, sweep, sweepErrors, matchErrors } = props;
  return (
    <fieldset className="field stack" style={{ gap: 8 }}>
      <legend>Harness (the same for every policy)</legend>
      <div role="radiogroup" aria-label="Pointer style" className="stack" style={{ gap: 2 }}>
        <span>Pointer style of every fold</span>
        <label>
          <input type="radio" name="pointers" value="semantic" checked={pointers === "semantic"} onChange={() => props.onPointers("semantic")} />{" "}
          <strong>semantic</strong> (default) — the pointer says what the folded thing was about: the call&apos;s tool and arguments, the paths and ids its
          output introduced.
        </label>
        <label>
          <input type="radio" name="pointers" value="plain" checked={pointers === "plain"} onChange={() => props.onPointers("plain")} /> <strong>plain</strong>{" "}
          — only the object id, the sidecar&apos;s digest and its size: the agent learns that something was folded, not what.
        </label>
      </div>
      <div className="field">
        <label htmlFor="eval-match">Matched budgets: compare every policy at the view size of</label>
        <select
          id="eval-match"
          className="select"
          value={match}
          onChange={(e) => props.onMatch(e.target.value)}
          aria-describedby="eval-match-help"
          style={{ maxWidth: 280 }}
        >
          <option value="">off</option>
          {policies.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
        <span id="eval-match-help" className="faint">
          At each cut every policy is also compacted to the size the chosen policy reached there (where it did not compact, nobody does), so the comparison is
          at equal pruning.
        </span>
        {matchErrors.length > 0 ? <span className="field-error">{matchErrors.join(" ")}</span> : null}
      </div>
      <div className="field">
        <label htmlFor="eval-sweep">Budget sweep (% of each prefix removed)</label>
        <input
          id="eval-sweep"
          className="input mono"
          value={sweep}
          onChange={(e) => props.onSweep(e.target.value)}
          placeholder="none"
          aria-describedby="eval-sweep-help"
          aria-invalid={sweepErrors.length > 0}
          style={{ maxWidth: 280 }}
        />
        <span id="eval-sweep-help" className="faint">
          Every policy also runs at each budget, for the trade-off curves (whole percents, 1–95).{" "}
          {SWEEP_PRESETS.map((preset) => (
            <button key={preset.join(",")} type="button" className="btn btn-sm" onClick={() => props.onSweep(preset.join(","))}>
              {preset.join(",")}
            </button>
          ))}{" "}
          <button type="button" className="btn btn-sm" onClick={() => props.onSweep("")}>
            none
          </button>
        </span>
        {sweepErrors.length > 0 ? (
          <span className="field-error" data-testid="sweep-errors">
            {sweepErrors.join(" ")}
          </span>
        ) : null}
      </div>
    </fieldset>
  );
}

/** The policy budgets are matched to: the user's choice while that policy is chosen, else self-gc when chosen, else none. */
export function matchedPolicy(choice: string | undefined, chosen: readonly string[]): string {
  if (choice === undefined) return chosen.includes("self-gc") ? "self-gc" : "";
  return choice !== "" && chosen.includes(choice) ? choice : "";
}
