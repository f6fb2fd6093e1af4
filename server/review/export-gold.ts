import { exportGold } from "@/lib/evaluation/calibration/gold-transfer";
import { itemIdForLabel, type ViewVerdictLabel } from "@/lib/review";
import type { Db } from "../db/client";
import { loadHistory } from "./label-rows";
import { loadQueueMeta } from "./queue-state";

/**
 * A calibration queue as a gold file (lib/evaluation/calibration/gold-transfer.ts `exportGold`): every label
 * version ever stored — the imported gold labels and people's since — each beside its unit, items
 * in queue order, versions in thread order (threads by their first date). Null when the queue does
 * not exist or is not a calibration queue.
 */
export async function exportGoldQueue(db: Db, queueId: string): Promise<string | null> {
  const meta = await loadQueueMeta(db, queueId);
  if (!meta || meta.kind !== "calibration") return null;
  const rows = await db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" }, select: { itemKey: true, unit: true } });
  const keys = new Set(rows.map((r) => r.itemKey));
  const byItem = new Map<string, ViewVerdictLabel[][]>();
  for (const thread of (await loadHistory(db, queueId)).values()) {
    const first = thread[0];
    if (first?.kind !== "view_verdict") continue;
    const key = itemIdForLabel(first)!;
    if (keys.has(key)) byItem.set(key, [...(byItem.get(key) ?? []), thread as ViewVerdictLabel[]]);
  }
  return exportGold(
    rows
      .filter((r) => r.unit !== null)
      .map((r) => ({
        unitJson: r.unit!,
        labels: (byItem.get(r.itemKey) ?? [])
          .sort((a, b) => (a[0]!.createdAt < b[0]!.createdAt ? -1 : a[0]!.createdAt > b[0]!.createdAt ? 1 : a[0]!.labelId < b[0]!.labelId ? -1 : 1))
          .flat(),
      })),
  );
}
