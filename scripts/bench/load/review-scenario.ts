import { randomUUID } from "node:crypto";
import { findAction } from "../../../e2e/fixtures/server-actions";
import { createDb } from "../../../server/db/client";
import type { LoadAccount } from "./seed-load";
import { summarizeLatency, timed, type LatencySummary } from "./latency";
import { LOAD_DIST_DIR } from "./studio-server";
import { StudioClient } from "./studio-client";

const ACTIONS_FILE = "app/_actions/review.ts";

type Result<T> = { ok: true; data: T } | { ok: false; code: string; message: string };
interface Candidate {
  id: string;
  value: string;
  suggestedType: string;
}
interface OpenedItem {
  itemKey: string;
  candidates?: Candidate[];
}

export interface ReviewScenarioResult {
  reviewers: number;
  seconds: number;
  thinkMs: number;
  saves: LatencySummary;
  opens: LatencySummary;
  statusRefreshes: LatencySummary;
  /** The item's labels reloaded after a dependency save (the screen's refresh; not a whole reopen). */
  activityRefreshes: LatencySummary;
  agreementRefreshes: LatencySummary;
  savesPerSecond: number;
  acknowledged: number;
  errors: number;
  errorSamples: string[];
  verify: { stored: number; missing: number; duplicated: number; wrongReviewer: number; unacknowledgedRows: number };
}

/**
 * Scenario A: `accounts.length` reviewers sign in over HTTP and label the dependency queue for
 * `seconds`, each doing what the labeling screen does (components/review/use-labeling.ts): open
 * the next item, think, confirm the judge's first candidate dependency if it has one (then reload
 * the item's labels), then mark the cut reviewed and open the next, refreshing the queue status
 * after each save, and asking for the
 * agreement on its own request 750 ms after a save (one in flight per reviewer, as the screen's
 * debounce does). Every call is the real
 * server action over HTTP. Afterwards every acknowledged (labelId, version) must be in the database
 * exactly once under its reviewer, and nothing unacknowledged may be stored.
 */
export async function runReviewScenario(
  origin: string,
  dbUrl: string,
  queueId: string,
  accounts: LoadAccount[],
  seconds: number,
  thinkMs: number,
): Promise<ReviewScenarioResult> {
  const manifest = `${LOAD_DIST_DIR}/server/server-reference-manifest.json`;
  const ref = (name: string) => {
    const action = findAction(ACTIONS_FILE, name, manifest);
    return { id: action.id, page: action.page.replace("[queueId]", queueId) };
  };
  const open = ref("openItemAction");
  const save = ref("saveLabelAction");
  const status = ref("queueStatusAction");
  const agreement = ref("queueAgreementAction");
  const activity = ref("itemActivityAction");
  const latencies = { saves: [] as number[], opens: [] as number[], status: [] as number[], agreement: [] as number[], activity: [] as number[] };
  const agreementCalls: Promise<unknown>[] = [];
  const acked: { labelId: string; version: number; reviewer: string }[] = [];
  const errors: string[] = [];

  const clients = await Promise.all(
    accounts.map(async (a) => {
      const c = new StudioClient(origin);
      await c.signIn(a.email, a.password);
      return { client: c, email: a.email };
    }),
  );
  const started = performance.now();
  const deadline = started + seconds * 1000;

  const call = async <T>(client: StudioClient, action: { id: string; page: string }, args: unknown[], into: number[], what: string): Promise<T | null> => {
    try {
      const { status: http, value } = await timed(into, () => client.callAction<Result<T>>(action.page, action.id, args));
      if (http !== 200 || !value) return (void errors.push(`${what}: HTTP ${http}`), null);
      if (!value.ok) return (void errors.push(`${what}: ${value.code} ${value.message}`), null);
      return value.data;
    } catch (error) {
      errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  };

  const reviewer = async ({ client, email }: { client: StudioClient; email: string }) => {
    let agreementInFlight = false;
    const askAgreement = () => {
      if (agreementInFlight) return;
      agreementInFlight = true;
      const asked = new Promise((r) => setTimeout(r, 750))
        .then(() => call(client, agreement, [queueId], latencies.agreement, "agreement"))
        .finally(() => (agreementInFlight = false));
      agreementCalls.push(asked);
    };
    const think = () => new Promise((r) => setTimeout(r, thinkMs * (0.5 + Math.random())));
    let item = (await call<{ item: OpenedItem | null }>(client, open, [{ queueId }], latencies.opens, "open"))?.item ?? null;
    while (performance.now() < deadline) {
      if (!item) {
        await think();
        item = (await call<{ item: OpenedItem | null }>(client, open, [{ queueId }], latencies.opens, "open"))?.item ?? null;
        continue;
      }
      const saveOne = async (draft: Record<string, unknown>) => {
        const labelId = randomUUID();
        const saved = await call<{ labelId: string; version: number }>(
          client,
          save,
          [{ queueId, itemKey: item!.itemKey, labelId, version: 1, draft }],
          latencies.saves,
          "save",
        );
        if (saved) acked.push({ labelId: saved.labelId, version: saved.version, reviewer: email });
        await call(client, status, [queueId], latencies.status, "status");
        askAgreement();
        return saved !== null;
      };
      const candidate = item.candidates?.[0];
      if (candidate) {
        await think();
        if (performance.now() >= deadline) break;
        await saveOne({ kind: "dependency", decision: "confirm", dependencyId: candidate.id, value: candidate.value, type: candidate.suggestedType });
        await call(client, activity, [{ queueId, itemKey: item.itemKey }], latencies.activity, "activity");
      }
      await think();
      if (performance.now() >= deadline) break;
      await saveOne({ kind: "cut_review" });
      item =
        (await call<{ item: OpenedItem | null }>(client, open, [{ queueId, current: item.itemKey, direction: "next" }], latencies.opens, "open"))?.item ?? null;
    }
  };
  await Promise.all(clients.map(reviewer));
  await Promise.all(agreementCalls);
  const elapsed = (performance.now() - started) / 1000;

  const saves = summarizeLatency(latencies.saves);
  return {
    reviewers: accounts.length,
    seconds: Math.round(elapsed),
    thinkMs,
    saves,
    opens: summarizeLatency(latencies.opens),
    statusRefreshes: summarizeLatency(latencies.status),
    activityRefreshes: summarizeLatency(latencies.activity),
    agreementRefreshes: summarizeLatency(latencies.agreement),
    savesPerSecond: Math.round((saves.n / elapsed) * 10) / 10,
    acknowledged: acked.length,
    errors: errors.length,
    errorSamples: [...new Set(errors)].slice(0, 5),
    verify: await verifyLabels(dbUrl, queueId, acked),
  };
}

async function verifyLabels(
  dbUrl: string,
  queueId: string,
  acked: { labelId: string; version: number; reviewer: string }[],
): Promise<ReviewScenarioResult["verify"]> {
  const db = createDb(dbUrl);
  try {
    const rows = await db.reviewLabelRow.findMany({ where: { queueId }, select: { labelId: true, version: true, reviewer: true } });
    const stored = new Map<string, { count: number; reviewer: string }>();
    for (const r of rows) {
      const key = `${r.labelId}#${r.version}`;
      stored.set(key, { count: (stored.get(key)?.count ?? 0) + 1, reviewer: r.reviewer });
    }
    let missing = 0,
      duplicated = 0,
      wrongReviewer = 0;
    const ackedKeys = new Set<string>();
    for (const a of acked) {
      const key = `${a.labelId}#${a.version}`;
      ackedKeys.add(key);
      const row = stored.get(key);
      if (!row) missing++;
      else if (row.count > 1) duplicated++;
      else if (row.reviewer !== a.reviewer) wrongReviewer++;
    }
    return { stored: rows.length, missing, duplicated, wrongReviewer, unacknowledgedRows: [...stored.keys()].filter((k) => !ackedKeys.has(k)).length };
  } finally {
    await db.$disconnect();
  }
}
