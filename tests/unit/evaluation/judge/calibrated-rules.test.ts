import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { extractCandidates, type Candidate } from "../../../../lib/evaluation/judge/candidates";
import { checkView } from "../../../../lib/evaluation/judge/check-view";
import { extractDependencies } from "../../../../lib/evaluation/judge/dependencies";
import { ValueForms } from "../../../../lib/evaluation/judge/value-forms";
import { analyze, call, prose, result, runAt, scriptedPolicy, session, step, text } from "../fixtures";

/**
 * The judge rules the gold set's careful reading led to (issue 16, item 6; README "The dependency
 * judge, in full"). Each is a general reading rule, pinned here on hand-built sessions.
 */
const candidates = (t: string): Candidate[] => {
  const out: Candidate[] = [];
  extractCandidates(t, (c) => out.push(c));
  return out;
};

describe("numbers", () => {
  test("an integer's trailing zeros are not significant: round values are not evidence", () => {
    const numbers = candidates("limit 500, then 1000 rows, port 3000, total 2787, fee 12.50, $500")
      .filter((c) => c.kind === "number")
      .map((c) => c.value);
    assert.deepEqual(numbers, ["2787", "12.50"]);
  });

  test("an amount with a currency sign or separators is also sought as the record writes it", () => {
    const numbers = candidates("the original payment of $2,787 was refunded")
      .filter((c) => c.kind === "number")
      .map((c) => c.value);
    assert.deepEqual(numbers, ["$2,787", "2787"]);
  });
});

describe("value forms", () => {
  const SPAN = "cleft = _coord_matrix(left, 'left', noutp)\n    else:\n        cleft = np.zeros((noutp, left.n_inputs))";
  test("a multi-line span shows when every substantive line shows, line numbers and all", () => {
    const forms = new ValueForms([SPAN], ["verbatim"]);
    const numbered =
      "  230\t    if isinstance(left, Model):\n  231\t        cleft = _coord_matrix(left, 'left', noutp)\n  232\t    else:\n  233\t        cleft = np.zeros((noutp, left.n_inputs))";
    assert.deepEqual([...forms.findIn([numbered])], [0]);
    assert.deepEqual([...forms.findIn(["  231\t        cleft = _coord_matrix(left, 'left', noutp)"])], [], "one line of two is not the span");
  });

  test("a URL shows without its scheme", () => {
    const forms = new ValueForms(["http://localhost:3001"], ["url"]);
    assert.deepEqual([...forms.findIn(["the dev server runs on localhost:3001 now"])], [0]);
    assert.deepEqual([...forms.findIn(["the dev server runs on localhost:30012"])], []);
  });

  test("a line of one value that is the whole of another still counts for both", () => {
    const whole = "cleft = _coord_matrix(left, 'left', noutp)";
    const forms = new ValueForms([SPAN, whole], ["verbatim", "verbatim"]);
    assert.deepEqual([...forms.findIn([`x ${whole} y`])].sort(), [1]);
  });
});

describe("what the future needed", () => {
  test("a span the future re-read with line numbers before using it is not a dependency", () => {
    const body = "def _cstack(left, right):\n    noutp = _compute_n_outputs(left, right)\n    cright = np.zeros((noutp, right.n_inputs))";
    const a = analyze(
      session([
        ["user", [text("Fix the stack function.")]],
        ...step("r1", "read", { path: "/src/separable.py" }, `${prose(800)}\n${body}\n${prose(800, "z")}`),
        ["assistant", [text("Read it.")]],
        ["user", [text("Go on.")]],
        ...step(
          "r2",
          "bash",
          { cmd: "cat -n /src/separable.py" },
          body
            .split("\n")
            .map((l, i) => `  ${240 + i}\t${l}`)
            .join("\n"),
        ),
        ["assistant", [call("w1", "write", { path: "/tmp/test.py", content: `${body}\nprint('ok')` })]],
        ["tool", [result("w1", "written")]],
      ]),
    );
    const deps = extractDependencies(a.session, a.index, 5).dependencies;
    assert.ok(!deps.some((d) => d.kind === "verbatim" && d.value.includes("_compute_n_outputs(left, right)")), deps.map((d) => d.value).join(" | "));
  });

  test("a code identifier only mentioned in prose is narrative; written into a call it is a dependency", () => {
    const build = (use: "prose" | "call") =>
      analyze(
        session([
          ["user", [text("Look at the models.")]],
          ...step("r1", "read", { path: "/src/core.py" }, `${prose(600)}\nclass CompoundModelBase:\n    pass\n${prose(600, "q")}`),
          ["assistant", [text("Noted.")]],
          ["user", [text("Continue.")]],
          use === "prose"
            ? ["assistant", [text("So CompoundModelBase is the base class here, fine.")]]
            : ["assistant", [call("e1", "edit", { path: "/src/x.py", text: "from core import CompoundModelBase" })]],
          ["tool", [result("e1", "ok")]],
        ]),
      );
    const ids = (a: ReturnType<typeof build>) =>
      extractDependencies(a.session, a.index, 5)
        .dependencies.filter((d) => d.kind === "identifier")
        .map((d) => d.value);
    assert.deepEqual(ids(build("prose")), []);
    assert.deepEqual(ids(build("call")), ["CompoundModelBase"]);
  });

  test("a value the harness's own compaction summary carried into the future is supplied again", async () => {
    const a = analyze(
      session(
        [
          ["user", [text("Deploy the release.")]],
          ...step("d1", "deploy", { env: "staging" }, `${prose(900)}\nrelease id REL-48213 deployed\n${prose(900, "y")}`),
          ["assistant", [text("Deployed.")]],
          ["user", [text("Summary of the conversation so far: we deployed release REL-48213 to staging.")]],
          ["assistant", [text("Promoting REL-48213 to production now.")]],
        ],
        { compactions: [{ kind: "claude_code_compact_boundary", beforeMessage: 5 }] },
      ),
    );
    a.session.messages[5]!.meta = { compactSummary: true };
    const deps = extractDependencies(a.session, a.index, 5).dependencies;
    assert.ok(!deps.some((d) => d.value === "REL-48213"), "the summary the agent received carries the id");
    const result = await runAt(scriptedPolicy([{ target: "function:deploy:1", action: "prune" }]), a, 5);
    assert.ok(checkView({ session: a.session, index: a.index, dependencies: deps, result }).every((d) => d.status !== "lost"));
  });
});
