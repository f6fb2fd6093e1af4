import type { FunctionFacts } from "./facts";

/**
 * Which results later steps made obsolete or load-bearing (seed 000, Table 5):
 * - a read is a duplicate once the same file (same range, or the whole file) is read again and
 *   the newer read still shows the older text (an edit in between makes the older text unique);
 * - a read is superseded once the whole file is rewritten (the write's arguments hold the body);
 * - the latest read of a file that is edited afterwards is an editable artifact body;
 * - a failed attempt is superseded once a later call with the same intent succeeds;
 * - an output is a superseded rerun once the identical command runs again successfully;
 * - any other call (not a shell command, not a file read) is a duplicate result once the same tool
 *   is called later with the same arguments and returns byte-identical output: the newer copy
 *   carries everything the older one did (a lookup repeated to re-check a record).
 * One pass over the function objects in order.
 */
export interface Supersession {
  duplicateRead: Map<string, string>;
  supersededByWrite: Map<string, string>;
  editable: Set<string>;
  supersededFailure: Map<string, string>;
  supersededRerun: Map<string, string>;
  duplicateResult: Map<string, string>;
}

export function findSupersession(functions: FunctionFacts[]): Supersession {
  const out: Supersession = {
    duplicateRead: new Map(),
    supersededByWrite: new Map(),
    editable: new Set(),
    supersededFailure: new Map(),
    supersededRerun: new Map(),
    duplicateResult: new Map(),
  };
  const lastCall = new Map<string, { id: string; content: string }>();
  const liveReads = new Map<string, { id: string; range: string; content: string }[]>();
  const pendingFailures = new Map<string, string[]>();
  const lastRun = new Map<string, string>();
  for (const f of functions) {
    const id = f.object.id;
    const { read, write } = f.call;
    if (read && !f.failed) {
      const reads = liveReads.get(read.path) ?? [];
      const kept = reads.filter((r) => {
        // A duplicate only if the newer read shows the same text (an edit in between changes it).
        const covered = (read.range === "all" || r.range === read.range) && f.content.includes(r.content);
        if (covered) out.duplicateRead.set(r.id, id);
        return !covered;
      });
      kept.push({ id, range: read.range, content: f.content });
      liveReads.set(read.path, kept);
    }
    if (write && !f.failed) {
      const reads = liveReads.get(write.path) ?? [];
      if (write.full) {
        for (const r of reads) {
          out.editable.delete(r.id);
          out.supersededByWrite.set(r.id, id);
        }
        liveReads.delete(write.path);
      } else for (const r of reads) out.editable.add(r.id);
    }
    if (f.failed) {
      const list = pendingFailures.get(f.call.intent) ?? [];
      list.push(id);
      pendingFailures.set(f.call.intent, list);
    } else {
      for (const failed of pendingFailures.get(f.call.intent) ?? []) out.supersededFailure.set(failed, id);
      pendingFailures.delete(f.call.intent);
      if (f.object.tool !== "exec" && !read && !write && f.content) {
        const key = `${f.object.tool}\u0000${f.call.command}`;
        const previous = lastCall.get(key);
        if (previous && previous.content === f.content) out.duplicateResult.set(previous.id, id);
        lastCall.set(key, { id, content: f.content });
      }
      if (f.object.tool === "exec") {
        const previous = lastRun.get(f.call.command);
        if (previous) out.supersededRerun.set(previous, id);
        lastRun.set(f.call.command, id);
      }
    }
  }
  return out;
}
