"use client";

import { useEffect, useState } from "react";
import type { EvalApiResponse } from "./eval-types";

interface Comparison {
  b: number;
  c: number;
  discordant: number;
  pValue: number;
  pairs: number;
  policyA: string;
  policyB: string;
}

/** McNemar's exact test of a chosen pair of policies on the cuts both were judged at. */
export function PolicyComparison({ runId, policies, version }: { runId: string; policies: string[]; version: number }) {
  const [a, setA] = useState(() => defaultPair(policies)[0]);
  const [b, setB] = useState(() => defaultPair(policies)[1]);
  const [result, setResult] = useState<Comparison | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!a || !b || a === b) return;
    let live = true;
    fetch(`/api/evaluations/${encodeURIComponent(runId)}/compare?${new URLSearchParams({ a, b })}`, { cache: "no-store" })
      .then((r) => r.json() as Promise<EvalApiResponse<Comparison>>)
      .then((body) => {
        if (!live) return;
        if (body.ok) {
          setResult(body.data);
          setError(null);
        } else setError(body.message);
      })
      .catch((e: unknown) => live && setError(String(e)));
    return () => {
      live = false;
    };
  }, [runId, a, b, version]);
  if (policies.length < 2) return <p className="faint">A paired comparison needs two policies.</p>;
  return (
    <div className="stack" data-testid="policy-comparison">
      <div className="row" style={{ gap: 8, alignItems: "end" }}>
        <label className="field">
          Policy A{" "}
          <select className="select" value={a} onChange={(e) => setA(e.target.value)}>
            {policies.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="field">
          Policy B{" "}
          <select className="select" value={b} onChange={(e) => setB(e.target.value)}>
            {policies.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
      </div>
      {a === b ? <p className="faint">Pick two different policies.</p> : null}
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      {result && a !== b ? (
        <p>
          On <strong>{result.pairs}</strong> shared cuts: only <span className="mono">{result.policyA}</span> had no impact at <strong>{result.b}</strong>, only{" "}
          <span className="mono">{result.policyB}</span> at <strong>{result.c}</strong>. McNemar exact p = <strong>{result.pValue.toPrecision(3)}</strong>
          {result.discordant === 0
            ? " (no discordant cuts: no evidence either way)"
            : result.pValue < 0.05
              ? " — a significant difference at 5%."
              : " — not significant at 5%."}
        </p>
      ) : null}
    </div>
  );
}

/** Self-GC against the first other policy that is not the `none` control, when the run has them. */
function defaultPair(policies: string[]): [string, string] {
  const a = policies.includes("self-gc") ? "self-gc" : (policies.find((p) => p !== "none") ?? policies[0] ?? "");
  const b = policies.find((p) => p !== a && p !== "none") ?? policies.find((p) => p !== a) ?? a;
  return [a, b];
}
