/**
 * Few-shot calibration for the planner contract, one example per risk of seed 000's Table 5:
 * tool-level fold for an editable script body rather than a whole-turn fold (exact evidence),
 * keep the result that introduced a live handle (locator loss), keep a contract read and a user
 * correction while pruning superseded failures (behavioural contract, live state), and fold a
 * resolved turn whole only when nothing inside it is still needed. Each plan parses.
 */
export interface FewShotExample {
  lesson: string;
  prefix: string;
  plan: string;
}

export const FEW_SHOT_EXAMPLES: readonly FewShotExample[] = [
  {
    lesson: "editable body: fold the script tool-level, prune the superseded failure, keep the corrected rerun",
    prefix: `[User] turn_id conversation:user:3 — "Fix the revenue report query."
[Tool result: Read(reports/revenue.sql)] 2,400 tokens of SQL <turn id="function:read:7" tokens="2400" />
[Tool error: Bash(psql -f reports/revenue.sql)] ERROR: column "amt" does not exist <turn id="function:exec:4" tokens="60" />
[Tool result: Bash(psql -f reports/revenue.sql)] 14 rows: region | revenue … <turn id="function:exec:5" tokens="300" />
[User] turn_id conversation:user:4, latest — "Now split revenue by quarter."`,
    plan: `<above_conversation_summary>
SQL repair session; the script body and the corrected result rows are future dependencies; light compression.
</above_conversation_summary>
<gc_plan>
  <fold kind="function" reason="stable_artifact: script body the next edit may need exactly">read:7</fold>
  <prune kind="function" reason="superseded_failure: exec:5 reran it successfully">exec:4</prune>
</gc_plan>`,
  },
  {
    lesson: "live handle: the short output holding the job id stays; the unused search goes",
    prefix: `[Tool result: WebSearch(vendor pricing 2024)] 1,800 tokens of links, none opened later <turn id="function:web_search:2" tokens="1800" />
[Tool result: Bash(scheduler submit nightly.yaml)] submitted job job_7f3a2c, callback https://ops.example.com/cb/7f3a2c <turn id="function:exec:11" tokens="40" />
[Tool result: Bash(scheduler status job_7f3a2c)] state=RUNNING <turn id="function:exec:12" tokens="20" />
[User] latest — "Tell me when it finishes and send the final link."`,
    plan: `<above_conversation_summary>
Scheduled-task operations run; the job id and callback URL are live handles; light compression.
</above_conversation_summary>
<gc_plan>
  <prune kind="function" reason="obsolete_search: no later step used its results">web_search:2</prune>
</gc_plan>`,
  },
  {
    lesson: "behavioural contract: keep the contract read and the user's correction; prune only the failed edits",
    prefix: `[User] turn_id conversation:user:2 — "Fix the totals row. Do not replace the table header."
[Tool result: Read(CONTRIBUTING.md)] formatting rules <turn id="function:read:3" tokens="900" />
[Tool error: Edit(report.xlsx header)] corrupted layout <turn id="function:edit:1" tokens="120" />
[Tool error: Edit(report.xlsx header)] corrupted layout <turn id="function:edit:2" tokens="130" />
[Tool result: Edit(report.xlsx totals)] totals updated <turn id="function:edit:3" tokens="40" />
[User] turn_id conversation:user:3, latest — "Also fix the subtotal in row 14."`,
    plan: `<above_conversation_summary>
Spreadsheet repair under a user constraint; the contract file and the header warning stay visible; light compression.
</above_conversation_summary>
<gc_plan>
  <prune kind="function" reason="superseded_failure: edit:3 succeeded after them">edit:1 edit:2</prune>
</gc_plan>`,
  },
  {
    lesson: "resolved turn: fold it whole only when nothing inside is still a dependency",
    prefix: `[User] turn_id conversation:user:1, tokens 9,000 — "Summarise these three vendor pages."
[Tool result: WebFetch(https://a.example.com)] 3,000 tokens <turn id="function:web_fetch:1" tokens="3000" />
[Tool result: WebFetch(https://b.example.com)] 3,000 tokens <turn id="function:web_fetch:2" tokens="3000" />
[Assistant] final comparison delivered.
[User] turn_id conversation:user:2, latest — "Unrelated: rename the repo's default branch to main."`,
    plan: `<above_conversation_summary>
Finished research turn followed by an unrelated git task; the old pages are recoverable if asked; moderate compression.
</above_conversation_summary>
<gc_plan>
  <fold kind="conversation" reason="resolved_turn: finished research, no live dependency inside">user:1</fold>
</gc_plan>`,
  },
];
