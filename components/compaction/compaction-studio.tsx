"use client";

import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { PolicyParams } from "@/lib/compaction/policies/types";
import { plural } from "@/lib/util/plural";
import type { CompactRequest, PolicyInfo, SidecarRef } from "@/server/compaction/compaction-api";
import type { CompactionSetup } from "@/server/compaction/compaction-setup";
import { ActionsTable } from "./actions-table";
import { CompareBar, CompareTools } from "./compare-tools";
import { ControlsCard } from "./controls-card";
import { nearestCutIndex } from "./cut-slider";
import { ProjectionGrid, type GridHandle } from "./projection-grid";
import { RestoreDialog } from "./restore-dialog";
import { RunDetails } from "./run-details";
import { RunError, RunProgress } from "./run-status";
import { RunSummary } from "./run-summary";
import { coerceParam, compactQueryString, overridesOf, type CompactQuery } from "./url-state";
import { dataOf, useCompactionRun } from "./use-compaction-run";
import { usePrefixWindows } from "./use-prefix-windows";
import { useShortcuts } from "./use-shortcuts";
import kbdStyles from "@/components/ui/kbd.module.css";
import { ShortcutsOverlay, type Shortcut } from "@/components/ui/shortcuts-overlay";
import styles from "./compaction-studio.module.css";

/** The replay page's shortcuts. */
const REPLAY_SHORTCUTS: Shortcut[] = [
  ["r", "run the policy at the cut"],
  ["c", "compare with another policy"],
  ["[", "previous safe cut"],
  ["]", "next safe cut"],
  ["?", "show this list"],
  ["Esc", "close a dialog"],
];

export interface CompactionStudioProps {
  setup: CompactionSetup;
  policies: PolicyInfo[];
  initial: CompactQuery;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/**
 * The replay page: pick a policy and a safe cut, run it on the server, and read the projected view
 * beside the original prefix (or beside a second policy's view), with every decision explained.
 * The URL mirrors the last run so it can be shared. Mount one per session.
 */
export function CompactionStudio({ setup, policies, initial }: CompactionStudioProps) {
  const find = useCallback((id: string | undefined) => policies.find((p) => p.id === id), [policies]);
  const [policyId, setPolicyId] = useState(() => initial.policy ?? find("self-gc")?.id ?? policies[0]!.id);
  const policy = find(policyId) ?? policies[0]!;
  const [paramTexts, setParamTexts] = useState(() => textsOf(policy, initial.params));
  const [cutIndex, setCutIndex] = useState(() => (initial.cut !== undefined ? nearestCutIndex(setup.safeCuts, initial.cut) : setup.safeCuts.length - 1));
  const [windowText, setWindowText] = useState(initial.window !== undefined ? String(initial.window) : "");
  const [compareId, setCompareId] = useState(initial.compare);
  const [compareParams, setCompareParams] = useState<PolicyParams>(initial.compareParams);
  const [restore, setRestore] = useState<SidecarRef>();
  const [help, setHelp] = useState(false);
  const [showOriginal, setShowOriginal] = useState(false);
  const [tab, setTab] = useState(0);
  const primary = useCompactionRun(setup.sessionId);
  const secondary = useCompactionRun(setup.sessionId);
  const windows = usePrefixWindows(setup.sessionId, setup.messageCount);
  const gridRef = useRef<GridHandle>(null);
  const compareRef = useRef<HTMLSelectElement>(null);

  const typed = useMemo(() => {
    const values: PolicyParams = {};
    const invalid: string[] = [];
    for (const spec of policy.params) {
      const value = coerceParam(spec, paramTexts[spec.name] ?? String(spec.default));
      if (value === undefined) invalid.push(spec.name);
      else values[spec.name] = value;
    }
    return { overrides: overridesOf(policy, values), invalid };
  }, [policy, paramTexts]);
  const windowValue = windowText.trim() === "" ? undefined : Number(windowText);
  const windowInvalid = windowValue !== undefined && !(Number.isInteger(windowValue) && windowValue >= 1);
  const cut = setup.safeCuts[cutIndex];
  const formRequest = useMemo<CompactRequest | undefined>(
    () =>
      cut
        ? {
            policy: policy.id,
            cut: cut.cut,
            ...(windowValue !== undefined ? { window: windowValue } : {}),
            ...(Object.keys(typed.overrides).length > 0 ? { params: typed.overrides } : {}),
          }
        : undefined,
    [policy.id, cut, windowValue, typed.overrides],
  );
  const canRun = formRequest !== undefined && typed.invalid.length === 0 && !windowInvalid;

  const syncUrl = useCallback((request: CompactRequest, compare: { id: string; params: PolicyParams } | undefined) => {
    const query: CompactQuery = {
      policy: request.policy,
      ...(request.cut !== undefined ? { cut: request.cut } : {}),
      ...(request.window !== undefined ? { window: request.window } : {}),
      ...(compare ? { compare: compare.id } : {}),
      params: request.params ?? {},
      compareParams: compare?.params ?? {},
    };
    window.history.replaceState(window.history.state, "", `${window.location.pathname}${compactQueryString(query)}`);
  }, []);

  const runAll = useCallback(() => {
    if (!canRun || !formRequest) return;
    void primary.run(formRequest);
    if (compareId) void secondary.run(compareRequest(formRequest, compareId, compareParams));
    syncUrl(formRequest, compareId ? { id: compareId, params: compareParams } : undefined);
  }, [canRun, formRequest, compareId, compareParams, primary, secondary, syncUrl]);

  /** Compare on the cut and window of the result on screen (not whatever the form says now). */
  const startCompare = useCallback(
    (id: string) => {
      setCompareId(id);
      setCompareParams({});
      setTab(0);
      const base = primary.state.status === "idle" ? formRequest : primary.state.request;
      if (!base) return;
      if (primary.state.status === "idle") void primary.run(base);
      void secondary.run(compareRequest(base, id, {}));
      syncUrl(base, { id, params: {} });
    },
    [primary, secondary, formRequest, syncUrl],
  );
  const closeCompare = useCallback(() => {
    setCompareId(undefined);
    secondary.reset();
    if (primary.state.status !== "idle") syncUrl(primary.state.request, undefined);
  }, [primary.state, secondary, syncUrl]);
  const swap = useCallback(() => {
    const a = primary.state;
    const b = secondary.state;
    if (a.status !== "done" || b.status !== "done" || !compareId) return;
    const next = find(b.request.policy);
    if (!next) return;
    primary.setState(b);
    secondary.setState(a);
    setPolicyId(next.id);
    setParamTexts(textsOf(next, b.request.params ?? {}));
    setCompareId(a.request.policy);
    setCompareParams(a.request.params ?? {});
    syncUrl(b.request, { id: a.request.policy, params: a.request.params ?? {} });
  }, [primary, secondary, compareId, find, syncUrl]);

  const choosePolicy = (id: string) => {
    const next = find(id);
    if (!next) return;
    setPolicyId(id);
    setParamTexts(textsOf(next, {}));
  };
  const stepCut = (delta: number) => setCutIndex((i) => Math.max(0, Math.min(setup.safeCuts.length - 1, i + delta)));
  useShortcuts({
    r: runAll,
    c: () => {
      compareRef.current?.focus();
      try {
        compareRef.current?.showPicker();
      } catch {
        // showPicker needs a user gesture in some browsers; focus is enough then
      }
    },
    "[": () => stepCut(-1),
    "]": () => stepCut(1),
    "?": () => setHelp((h) => !h),
  });

  // A shared link (?policy=…) shows its result straight away.
  const autoRan = useRef(false);
  useEffect(() => {
    if (autoRan.current || !initial.policy) return;
    autoRan.current = true;
    runAll();
  }, [initial.policy, runAll]);

  const dataA = dataOf(primary.state);
  const dataB = compareId ? dataOf(secondary.state) : undefined;
  const comparing = dataA !== undefined && dataB !== undefined && dataB.result.cut === dataA.result.cut && dataB.result.window === dataA.result.window;
  const runs = useMemo(() => (dataA ? (comparing ? [dataA.result, dataB!.result] : [dataA.result]) : []), [dataA, dataB, comparing]);
  const shown = comparing && tab === 1 ? dataB!.result : dataA?.result;
  const stale =
    primary.state.status === "done" && formRequest !== undefined && JSON.stringify(normalise(primary.state.request)) !== JSON.stringify(normalise(formRequest));
  const running = primary.state.status === "running" || secondary.state.status === "running";
  const onTarget = useCallback((target: string) => void gridRef.current?.scrollToTarget(target), []);

  const compareTools = (
    <CompareTools
      ref={compareRef}
      policies={policies}
      exclude={dataA?.result.policy ?? policy.id}
      value={compareId}
      comparing={compareId !== undefined}
      onCompare={startCompare}
      onClose={closeCompare}
    />
  );

  return (
    <div className={styles.screen} data-testid="compaction-studio">
      <header>
        <nav className={styles.crumbs} aria-label="Breadcrumb">
          <Link href="/traces">Traces</Link>
          <span aria-hidden="true">/</span>
          <Link href={`/sessions/${encodeURIComponent(setup.sessionId)}`} className={styles.crumbTitle} title={setup.title}>
            {setup.title}
          </Link>
          <span aria-hidden="true">/</span>
          <span>Replay</span>
        </nav>
        <div className={styles.titleRow}>
          <h1>Replay policies at a cut</h1>
          <span className={styles.sessionFacts}>
            <span className="pill">{setup.format}</span> {plural(setup.messageCount, "message")} · {plural(setup.tokens, "token")} ·{" "}
            {plural(setup.safeCuts.length, "safe cut")}
          </span>
          <button type="button" className={`btn btn-sm btn-ghost ${styles.helpButton}`} onClick={() => setHelp(true)} aria-keyshortcuts="?">
            Shortcuts <kbd className={kbdStyles.kbd}>?</kbd>
          </button>
        </div>
      </header>

      <ControlsCard
        policies={policies}
        policy={policy}
        onPolicy={choosePolicy}
        paramTexts={paramTexts}
        onParam={(name, text) => setParamTexts((t) => ({ ...t, [name]: text }))}
        onResetParams={() => setParamTexts(textsOf(policy, {}))}
        cuts={setup.safeCuts}
        cutIndex={cutIndex}
        onCut={setCutIndex}
        messageCount={setup.messageCount}
        windowText={windowText}
        onWindow={setWindowText}
        windowInvalid={windowInvalid}
        canRun={canRun && !running}
        running={running}
        onRun={runAll}
      />

      <RunProgress
        states={[primary.state, secondary.state]}
        onCancel={() => {
          primary.cancel();
          secondary.cancel();
        }}
      />
      <RunError state={primary.state} onRetry={() => primary.state.status === "error" && void primary.run(primary.state.request)} />
      <RunError state={secondary.state} onRetry={() => secondary.state.status === "error" && void secondary.run(secondary.state.request)} />
      {stale && !running ? (
        <div className={styles.stale} role="status">
          The settings changed since this result (shown for <span className="mono">{primary.state.status === "done" ? primary.state.request.policy : ""}</span>{" "}
          at cut {dataA ? fmt(dataA.result.cut) : ""}). Press <kbd className={kbdStyles.kbd}>r</kbd> to run again.
        </div>
      ) : null}

      {!dataA ? (
        primary.state.status === "idle" ? (
          <section className={`card ${styles.emptyState}`} data-testid="empty-state">
            <h2>Pick a policy and a cut, then Run</h2>
            <p>The server replays the policy on the first messages of this session and shows what the agent would have seen next, beside the original.</p>
            <p>
              Keys: <kbd className={kbdStyles.kbd}>r</kbd> run · <kbd className={kbdStyles.kbd}>[</kbd> <kbd className={kbdStyles.kbd}>]</kbd> previous/next
              safe cut · <kbd className={kbdStyles.kbd}>c</kbd> compare · <kbd className={kbdStyles.kbd}>?</kbd> all shortcuts
            </p>
          </section>
        ) : null
      ) : (
        <>
          {comparing ? (
            <CompareBar
              a={dataA.result}
              b={dataB!.result}
              messageCount={dataA.messageCount}
              note={dataA.choice.note}
              onSwap={swap}
              canSwap={primary.state.status === "done" && secondary.state.status === "done"}
              tools={compareTools}
            />
          ) : null}
          <div className={styles.summaryRow} data-compare={comparing || undefined} style={running ? { opacity: 0.6 } : undefined}>
            {comparing ? (
              <>
                <RunSummary data={dataA} label="A" hideMeta />
                <RunSummary data={dataB!} label="B" hideMeta />
              </>
            ) : (
              <RunSummary data={dataA} tools={compareTools} />
            )}
          </div>
          <ProjectionGrid
            ref={gridRef}
            runs={runs}
            showOriginal={!comparing || showOriginal}
            onShowOriginal={comparing ? setShowOriginal : undefined}
            windows={windows}
            onRestore={setRestore}
          />
          {comparing ? (
            <div className={styles.tabs} role="tablist" aria-label="Decisions of">
              {[dataA.result, dataB!.result].map((r, i) => (
                <button key={i} type="button" role="tab" className={styles.tab} aria-selected={tab === i} onClick={() => setTab(i)}>
                  {i === 0 ? "A" : "B"} · {r.policy}
                </button>
              ))}
            </div>
          ) : null}
          {shown ? (
            <div className={styles.lower}>
              <ActionsTable key={`${shown.policy}:${shown.cut}`} run={shown} onTarget={onTarget} />
              <RunDetails run={shown} onTarget={onTarget} />
            </div>
          ) : null}
        </>
      )}

      {restore ? <RestoreDialog key={restore.sha256} sidecar={restore} onClose={() => setRestore(undefined)} /> : null}
      {help ? <ShortcutsOverlay shortcuts={REPLAY_SHORTCUTS} onClose={() => setHelp(false)} /> : null}
    </div>
  );
}

/** The compared policy runs on the same cut and window as the base request. */
function compareRequest(base: CompactRequest, id: string, params: PolicyParams): CompactRequest {
  return {
    policy: id,
    ...(base.cut !== undefined ? { cut: base.cut } : {}),
    ...(base.window !== undefined ? { window: base.window } : {}),
    ...(Object.keys(params).length > 0 ? { params } : {}),
  };
}

/** Parameter fields prefilled with the defaults, overridden by `values`. */
function textsOf(policy: PolicyInfo, values: PolicyParams): Record<string, string> {
  return Object.fromEntries(policy.params.map((s) => [s.name, String(values[s.name] ?? s.default)]));
}

function normalise(request: CompactRequest) {
  return { policy: request.policy, cut: request.cut, window: request.window, params: Object.entries(request.params ?? {}).sort() };
}
