"use client";

import { useCallback, useEffect, useState } from "react";
import { isActive, type EvalApiResponse, type RunView } from "./eval-types";

/**
 * The run page's data: starts from the server-rendered view and polls `GET /api/evaluations/[id]`
 * every `ms` while the run is queued or running (and once after a control action via `reload`).
 */
export function useRunView(initial: RunView, ms = 1_500): { view: RunView; error: string | null; reload: () => Promise<void> } {
  const [view, setView] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      const response = await fetch(`/api/evaluations/${encodeURIComponent(initial.run.id)}`, { cache: "no-store" });
      const body = (await response.json()) as EvalApiResponse<RunView>;
      if (body.ok) {
        setView(body.data);
        setError(null);
      } else setError(body.message);
    } catch (e) {
      setError(`could not refresh the run: ${e instanceof Error ? e.message : String(e)}`);
    }
  }, [initial.run.id]);
  const active = isActive(view.run.status);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void reload(), ms);
    return () => clearInterval(timer);
  }, [active, ms, reload]);
  return { view, error, reload };
}
