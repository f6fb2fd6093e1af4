import { serviceLog } from "../fixtures/logs";
import { SERVICES } from "../fixtures/vocab";
import type { DraftPlant } from "../writer";
import { callbackUrl, history, jobConfig, jobId, SCHEDULER_FOLLOW_UPS, SCHEDULER_SYSTEM, schedulerFiller } from "./scheduler-files";
import type { Workload } from "./workload";

/**
 * "Trace why the scheduled task failed, rerun it, and send me the final link."
 * Early turns read the history, the failed run's log and the job config, rerun once (it fails on
 * throttling, with a bulky full log), take the user's pool constraint and rerun successfully.
 * Late turns need the duplicate key, the constraint, the original notification wording, the
 * throttling line, the callback URL, the successful job id (not the failed one) and the report link.
 */
export const scheduledTaskDebug: Workload = (w) => {
  const { rng, ids } = w;
  const service = rng.pick(SERVICES);
  const task = `nightly-${service}`;
  const config = `jobs/${task}.yaml`;
  const [failedNightly, failedRerun, goodRerun] = [jobId(w), jobId(w), jobId(w)];
  const entry = ids.fresh(() => `E-${rng.digits(7)}`);
  const callback = callbackUrl(w);
  const report = ids.fresh(() => `https://reports.example.com/r/${rng.hex(6)}`);
  const pool = ids.fresh(() => `--pool=canary-${rng.digits(3)}`);
  const template = ids.claim(
    `Nightly ${service} for {date} finished with status {status}; {rows} rows posted. Escalate in #fin-ops-${rng.digits(3)} if counts drift by more than ${rng.int(2, 9)}%.`,
  );
  const batches = rng.int(600, 999);
  const throttle = ids.claim(`retry budget exhausted after ${rng.int(3, 12)} attempts at batch ${rng.int(100, batches - 1)}/${batches}`);
  const p = {} as Record<"entry" | "callback" | "template" | "throttle" | "pool" | "job" | "report", DraftPlant>;

  const early = [
    () => {
      w.user(`Trace why the scheduled task ${task} failed last night, rerun it, and send me the final link.`);
      const failedRow = { jobId: failedNightly, task, started: "2025-03-03 02:00:04", status: "FAILED", duration: "23m 51s" };
      w.call("exec", { cmd: `schedctl history ${task} --last 8` }, history(w, task, 7, [failedRow]));
      const error = `ERROR ${service} duplicate key value violates unique constraint ledger_entries_pkey: Key (entry_id)=(${entry}) already exists; aborting`;
      const tail = serviceLog(rng, { service, day: "2025-03-03", startMs: 8_390_000, lines: 150, batches, inject: { at: 0.97, lines: [error] } });
      const logs = w.call("exec", { cmd: `schedctl logs ${failedNightly} --tail 150` }, tail);
      p.entry = w.plant("evidence_detail", entry, logs.result, "Ledger entry whose duplicate key aborted the nightly run; a late turn quarantines it.");
      const cfg = w.call("read_file", { path: config }, jobConfig(task, service, callback, template));
      p.callback = w.plant("locator_handle", callback, cfg.result, "Downstream callback URL from the job config; fired by hand after the successful rerun.");
      p.template = w.plant(
        "verbatim_source",
        template,
        cfg.result,
        "Original notification wording; the user later asks to restore it exactly after the agent's edit.",
      );
      w.say(`Root cause: ${failedNightly} aborted on a duplicate ledger key. Rerunning now.`);
      w.call("exec", { cmd: `schedctl rerun ${task}` }, `queued ${failedRerun} on pool default`);
      w.call("exec", { cmd: `schedctl wait ${failedRerun} --timeout 30m` }, `${failedRerun} FAILED after 18m 02s: upstream throttled (see logs)`, {
        isError: true,
      });
      const warn = `WARN  ${service} upstream ledger-api throttled (HTTP 429); ${throttle}`;
      const full = serviceLog(rng, { service, day: "2025-03-03", startMs: 31_200_000, lines: rng.int(300, 450), batches, inject: { at: 0.6, lines: [warn] } });
      const fullLogs = w.call("exec", { cmd: `schedctl logs ${failedRerun} --full` }, full);
      const why = "One warning line inside a bulky full log a fold would sidecar; the incident note asks for it by topic.";
      p.throttle = w.plant("recovery_routing", throttle, fullLogs.result, why);
      w.say("The rerun failed too, this time on API throttling partway through.");
    },
    () => {
      const ask = w.user(`When you rerun it, keep it on the canary pool: pass ${pool}, and never use --force.`);
      p.pool = w.plant("behavioral_contract", pool, ask, "User constraint on how the task may run; tonight's scheduled run must follow it too.");
      w.call("exec", { cmd: `yq -i '.retries = 5 | .notify_template = "Nightly sync done: {status}"' ${config}` }, "");
      const rerun = w.call("exec", { cmd: `schedctl rerun ${task} ${pool} --from-checkpoint` }, `queued ${goodRerun} on pool ${pool.slice(7)}`);
      w.also(p.pool, rerun.call);
      p.job = w.plant("live_state", goodRerun, rerun.result, "The rerun that succeeded; the earlier failed rerun's id is stale.", failedRerun);
      w.also(p.job, w.call("exec", { cmd: `schedctl wait ${goodRerun} --timeout 45m` }, "done (exit 0)").call);
      const done = w.call(
        "exec",
        { cmd: `schedctl status ${goodRerun}` },
        `${goodRerun} SUCCEEDED in 41m 12s; rows posted: ${rng.int(200_000, 600_000)}\nreport: ${report}`,
      );
      w.also(p.job, done.call);
      w.also(p.job, done.result);
      p.report = w.plant("locator_handle", report, done.result, "Report link of the successful rerun: the final handoff the user asked for.");
      w.also(p.job, w.say(`${goodRerun} succeeded on the canary pool; the report is ready.`));
    },
  ];

  const late = [
    () => {
      w.user("Quarantine the ledger entry that caused the duplicate-key failure so tonight's run doesn't hit it again.");
      w.use(p.entry, w.call("exec", { cmd: `ledgerctl quarantine --entry-id ${entry} --reason duplicate-key` }, "quarantined 1 entry").call);
    },
    () => {
      w.user("Schedule tonight's run with the same constraints I gave you for the rerun.");
      w.use(p.pool, w.call("exec", { cmd: `schedctl schedule ${task} --at 02:00 ${pool}` }, "scheduled for 2025-03-04 02:00 UTC").call);
    },
    () => {
      w.user("The notification text changed after your config edit. Restore the original notify_template wording exactly.");
      w.use(p.template, w.call("exec", { cmd: `yq -i '.notify_template = "${template}"' ${config}` }, "").call);
    },
    () => {
      w.user("For the incident note: what exactly did the throttling warning in the failed rerun's log say?");
      w.use(p.throttle, w.say(`The warning read: upstream ledger-api throttled (HTTP 429); ${throttle}.`));
    },
    () => {
      w.user("Fire the downstream callback for the run that succeeded, then send me the final link.");
      const curl = w.call("exec", { cmd: `curl -fsS -X POST ${callback} -d '{"job":"${goodRerun}"}'` }, '{"ok":true}').call;
      w.use(p.callback, curl);
      w.use(p.job, curl);
      w.use(p.report, w.call("send_message", { to: "user", text: `Rerun ${goodRerun} succeeded. Report: ${report}` }, "sent").call);
      w.say("Callback fired and the link is in your chat.");
    },
  ];

  const followUp = (): void => {
    w.user(rng.pick(SCHEDULER_FOLLOW_UPS));
    w.say("Checked; nothing else needs attention for this task.");
  };
  return { system: SCHEDULER_SYSTEM, early, late, followUp, filler: () => schedulerFiller(w) };
};
