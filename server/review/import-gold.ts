import { createHash } from "node:crypto";
import { planGoldImport, type GoldImportItem } from "@/lib/evaluation/calibration/gold-transfer";
import type { ImportError } from "@/lib/review";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/unique-violation";
import { labelBody } from "./label-rows";

/**
 * Imports a gold file (lib/evaluation/calibration/gold.ts) as a calibration queue: one view-verdict item
 * per unit, its labels (reviewer `gold:…`) stored as label versions like any reviewer's. One
 * transaction: a file with any problem writes nothing, and every problem is located by line and
 * field (lib/evaluation/calibration/gold-transfer.ts), including a unit whose trace is not in the studio — matched
 * by the trace file's sha256 (or its name, see storedSessions) and the session's id in it, so the
 * error says which file to upload. The same file imported again is recognised by its sha256 and answered with
 * the queue it made (nothing written); a different file whose label versions are already stored
 * (in any queue) is refused, since a label version is never stored twice.
 */
export type GoldImportOutcome =
  | { ok: true; queueId: string; items: number; labels: number; duplicate: boolean }
  | { ok: false; code: "invalid_file"; message: string; errors: ImportError[] };

export interface GoldImportOptions {
  name?: string;
  /** Distinct labellers an item needs (default 2: the gold label and one person's, so both can be compared). */
  overlap?: number;
  createdById?: string;
}

export async function importGoldQueue(db: Db, text: string, options: GoldImportOptions = {}): Promise<GoldImportOutcome> {
  const sourceSha256 = createHash("sha256").update(text).digest("hex");
  const existing = await findBySource(db, sourceSha256);
  if (existing) return existing;
  const planned = planGoldImport(text);
  if (!planned.ok) return refuse(planned.errors);
  const { items, labels } = planned.plan;
  const errors: ImportError[] = [];
  const sessions = await storedSessions(db, items, errors);
  const taken = await db.reviewLabelRow.findMany({
    where: { labelId: { in: [...new Set(labels.map((l) => l.label.labelId))] } },
    select: { labelId: true, version: true, queueId: true },
  });
  const takenKeys = new Map(taken.map((t) => [`${t.labelId}\u0000${t.version}`, t.queueId]));
  for (const { label, line } of labels) {
    const queue = takenKeys.get(`${label.labelId}\u0000${label.version}`);
    if (queue)
      errors.push({
        line,
        field: "label.labelId",
        expected: "a label version not stored yet",
        message: `label ${label.labelId} version ${label.version} is already stored (queue ${queue}); a label version is never stored twice`,
      });
  }
  if (errors.length > 0) return refuse(errors.sort((a, b) => a.line - b.line));
  const users = new Map(
    (await db.user.findMany({ where: { email: { in: [...new Set(labels.map((l) => l.label.reviewer))] } }, select: { id: true, email: true } })).map((u) => [
      u.email,
      u.id,
    ]),
  );
  const name = options.name?.trim() || `Calibration: ${items.length} gold unit${items.length === 1 ? "" : "s"}`;
  try {
    const queueId = await db.$transaction(async (tx) => {
      const queue = await tx.reviewQueue.create({
        data: {
          name,
          kind: "calibration",
          runId: null,
          overlap: options.overlap ?? 2,
          sourceSha256,
          blind: true,
          ...(options.createdById ? { createdById: options.createdById } : {}),
        },
      });
      await tx.reviewItem.createMany({
        data: items.map(({ item, unitJson }, position) => ({
          queueId: queue.id,
          itemKey: item.id,
          position,
          sessionId: sessions.get(item.unitId)!,
          cut: item.ref.cut,
          payload: JSON.stringify(item),
          unit: unitJson,
        })),
      });
      await tx.reviewLabelRow.createMany({
        data: labels.map(({ label, itemKey }) => ({
          queueId: queue.id,
          itemKey,
          labelId: label.labelId,
          version: label.version,
          kind: label.kind,
          reviewerId: users.get(label.reviewer) ?? label.reviewer,
          reviewer: label.reviewer,
          retracted: label.retracted === true,
          body: labelBody(label),
          createdAt: new Date(label.createdAt),
        })),
      });
      return queue.id;
    });
    return { ok: true, queueId, items: items.length, labels: labels.length, duplicate: false };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent import of the same file (its label versions are unique), or of some of its label versions, won.
    const raced = await findBySource(db, sourceSha256);
    if (raced) return raced;
    return refuse([
      {
        line: 1,
        field: "label.labelId",
        expected: "label versions not stored yet",
        message: "some label versions of the file were stored by a concurrent import; nothing was imported",
      },
    ]);
  }
}

/**
 * The stored session (TraceSession.id) of each unit, by unit id; a unit whose trace file or session
 * is not in the studio gets a located error naming what to upload. A file is found by its sha256;
 * failing that (an upload stores the file with its secrets redacted, so the bytes — and the sha256
 * — may differ from the gold file's), by its file name, when exactly one upload of that name holds
 * the unit's session.
 */
async function storedSessions(db: Db, items: readonly GoldImportItem[], errors: ImportError[]): Promise<Map<string, string>> {
  const hashes = [...new Set(items.map((i) => i.unit.trace.sha256))];
  const names = [...new Set(items.map((i) => baseName(i.unit.trace.path)))];
  const uploads = await db.upload.findMany({
    where: { OR: [{ sha256: { in: hashes } }, { fileName: { in: names } }] },
    select: { sha256: true, fileName: true, sessions: { select: { id: true, externalId: true } } },
  });
  const out = new Map<string, string>();
  for (const { unit, line } of items) {
    const exact = uploads.find((u) => u.sha256 === unit.trace.sha256);
    const named = uploads.filter((u) => u.fileName === baseName(unit.trace.path) && u.sessions.some((s) => s.externalId === unit.sessionId));
    if (!exact && named.length !== 1) {
      const message =
        named.length > 1
          ? `${named.length} uploads named ${baseName(unit.trace.path)} hold session ${unit.sessionId} and none has the file's sha256 ${unit.trace.sha256.slice(0, 12)}…: upload the exact file ${unit.trace.path}`
          : `trace ${unit.trace.path} (sha256 ${unit.trace.sha256.slice(0, 12)}…) is not in the studio: upload that file on Traces, then import the gold file again`;
      errors.push({ line, field: "unit.trace", expected: "a trace file imported into the studio", message });
      continue;
    }
    const session = (exact ?? named[0]!).sessions.find((s) => s.externalId === unit.sessionId);
    if (!session)
      errors.push({
        line,
        field: "unit.sessionId",
        expected: `a session of ${unit.trace.path}`,
        message: `the uploaded ${unit.trace.path} has no session ${unit.sessionId}`,
      });
    else out.set(unit.id, session.id);
  }
  return out;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

async function findBySource(db: Db, sourceSha256: string): Promise<GoldImportOutcome | null> {
  const queue = await db.reviewQueue.findFirst({
    where: { sourceSha256 },
    orderBy: { createdAt: "asc" },
    select: { id: true, _count: { select: { items: true, labels: true } } },
  });
  return queue ? { ok: true, queueId: queue.id, items: queue._count.items, labels: queue._count.labels, duplicate: true } : null;
}

function refuse(errors: ImportError[]): GoldImportOutcome {
  return {
    ok: false,
    code: "invalid_file",
    message: `${errors.length} problem${errors.length === 1 ? "" : "s"} in the gold file; nothing was imported`,
    errors,
  };
}
