/**
 * The authorization matrix: every page, route handler method and server action of app/ × {anonymous,
 * viewer, reviewer, admin} → the answer the production build must give. The intent (README, issues):
 * viewers read everything, reviewers also upload, label and start/cancel evaluations, admins also
 * manage users, review queues and label imports. Anonymous visitors are sent to /login by pages
 * (and by server actions, whose POST goes to a page path) and get 401 JSON from the API; a signed-in
 * user without the role gets 404 from pages and actions (nothing revealed) and 403 from the API.
 *
 * e2e/authz-matrix-coverage.spec.ts fails when app/ has an entry point this table does not name (see
 * fixtures/route-inventory.ts). Each row's probe is the request sent for every role. Probes of
 * mutations are deliberately invalid (an allowed role gets past the role check and is refused by
 * validation: 400, or an `invalid_input` action result with 200; the redaction settings action
 * reads an empty form as the defaults, so its probe writes the defaults already in effect), so the matrix itself changes
 * nothing; e2e/authz-probes.spec.ts also sends valid mutations from refused roles and checks nothing changed.
 */
export type Who = "anonymous" | "viewer" | "reviewer" | "admin";
export const WHO: readonly Who[] = ["anonymous", "viewer", "reviewer", "admin"];

/** An HTTP status, and for redirects where they must lead (a path prefix). */
export interface Answer {
  status: number;
  location?: string;
}

/** Real ids created by e2e/authz-probes.spec.ts's beforeAll (fixtures/authz-context.ts seedAuthz). */
export interface Ids {
  sessionId: string;
  runId: string;
  queueId: string;
  logId: string;
  sidecarSha: string;
  unitKey: string;
  uploadId: string;
}

export type Probe = { path: string; body?: unknown } | { args: unknown[] };

export interface MatrixRow {
  /** `METHOD /path` as fixtures/route-inventory.ts names it, or `action <file>#<export>`. */
  key: string;
  probe: (ids: Ids) => Probe;
  expect: Record<Who, Answer>;
}

const OK: Answer = { status: 200 };
const BAD: Answer = { status: 400 };
const LOGIN: Answer = { status: 307, location: "/login" };
const HIDDEN: Answer = { status: 404 };
const API_401: Answer = { status: 401 };
const API_403: Answer = { status: 403 };
const TO_TRACES: Answer = { status: 307, location: "/traces" };

const page = (min: "viewer" | "reviewer" | "admin"): Record<Who, Answer> => ({
  anonymous: LOGIN,
  viewer: min === "viewer" ? OK : HIDDEN,
  reviewer: min === "admin" ? HIDDEN : OK,
  admin: OK,
});
const api = (min: "viewer" | "reviewer" | "admin", allowed: Answer = OK): Record<Who, Answer> => ({
  anonymous: API_401,
  viewer: min === "viewer" ? allowed : API_403,
  reviewer: min === "admin" ? API_403 : allowed,
  admin: allowed,
});
/** Server actions: fetch-style POSTs to the page that hosts them; allowed roles get the action's result (200). */
const action = page;
const all = (answer: Answer): Record<Who, Answer> => ({ anonymous: answer, viewer: answer, reviewer: answer, admin: answer });

const S = "app/(studio)";

export const MATRIX: MatrixRow[] = [
  // Pages
  { key: "GET /", probe: () => ({ path: "/" }), expect: { anonymous: LOGIN, viewer: TO_TRACES, reviewer: TO_TRACES, admin: TO_TRACES } },
  { key: "GET /login", probe: () => ({ path: "/login" }), expect: { anonymous: OK, viewer: TO_TRACES, reviewer: TO_TRACES, admin: TO_TRACES } },
  { key: "GET /traces", probe: () => ({ path: "/traces" }), expect: page("viewer") },
  { key: "GET /sessions/[id]", probe: (i) => ({ path: `/sessions/${i.sessionId}` }), expect: page("viewer") },
  { key: "GET /sessions/[id]/compact", probe: (i) => ({ path: `/sessions/${i.sessionId}/compact?policy=tool-prune` }), expect: page("viewer") },
  { key: "GET /evaluations", probe: () => ({ path: "/evaluations" }), expect: page("viewer") },
  { key: "GET /evaluations/[id]", probe: (i) => ({ path: `/evaluations/${i.runId}` }), expect: page("viewer") },
  { key: "GET /rollouts", probe: () => ({ path: "/rollouts" }), expect: page("viewer") },
  // No rollout is seeded here (e2e/rollouts.spec.ts opens a real one as a viewer): an unknown id is 404 for every signed-in role.
  {
    key: "GET /rollouts/[id]",
    probe: () => ({ path: "/rollouts/no-such-rollout" }),
    expect: { anonymous: LOGIN, viewer: HIDDEN, reviewer: HIDDEN, admin: HIDDEN },
  },
  {
    key: "GET /rollouts/[id]/sessions/[sessionId]/calls/[call]",
    probe: (i) => ({ path: `/rollouts/no-such-rollout/sessions/${i.sessionId}/calls/1?policy=tool-prune` }),
    expect: { anonymous: LOGIN, viewer: HIDDEN, reviewer: HIDDEN, admin: HIDDEN },
  },
  { key: "GET /review", probe: () => ({ path: "/review" }), expect: page("viewer") },
  { key: "GET /review/[queueId]", probe: (i) => ({ path: `/review/${i.queueId}` }), expect: page("viewer") },
  { key: "GET /online", probe: () => ({ path: "/online" }), expect: page("viewer") },
  { key: "GET /online/[id]", probe: (i) => ({ path: `/online/${i.logId}` }), expect: page("viewer") },
  { key: "GET /upload", probe: () => ({ path: "/upload" }), expect: page("reviewer") },
  { key: "GET /admin/users", probe: () => ({ path: "/admin/users" }), expect: page("admin") },
  { key: "GET /admin/settings", probe: () => ({ path: "/admin/settings" }), expect: page("admin") },
  { key: "GET /admin/keys", probe: () => ({ path: "/admin/keys" }), expect: page("admin") },
  { key: "GET /admin/retention", probe: () => ({ path: "/admin/retention?olderThan=3650d" }), expect: page("admin") },

  // Route handlers. next-auth's own endpoints are public by nature (sign-in needs them).
  { key: "GET /api/auth/[...nextauth]", probe: () => ({ path: "/api/auth/csrf" }), expect: all(OK) },
  {
    key: "POST /api/auth/[...nextauth]",
    probe: () => ({ path: "/api/auth/callback/credentials", body: {} }),
    expect: all({ status: 302, location: "/api/auth/signin?csrf=true" }),
  },
  { key: "GET /api/policies", probe: () => ({ path: "/api/policies" }), expect: api("viewer") },
  { key: "GET /api/sessions/[id]/messages", probe: (i) => ({ path: `/api/sessions/${i.sessionId}/messages?from=0&to=5` }), expect: api("viewer") },
  { key: "GET /api/sessions/[id]/messages/[index]", probe: (i) => ({ path: `/api/sessions/${i.sessionId}/messages/0` }), expect: api("viewer") },
  { key: "GET /api/sessions/[id]/search", probe: (i) => ({ path: `/api/sessions/${i.sessionId}/search?q=the` }), expect: api("viewer") },
  {
    key: "GET /api/sessions/[id]/compact/jobs/[jobId]",
    probe: (i) => ({ path: `/api/sessions/${i.sessionId}/compact/jobs/no-such-job` }),
    expect: api("viewer", HIDDEN),
  },
  // Replaying a policy is reading (a what-if view); its sidecars are a content-addressed cache.
  {
    key: "POST /api/sessions/[id]/compact",
    probe: (i) => ({ path: `/api/sessions/${i.sessionId}/compact`, body: { policy: "tool-prune" } }),
    expect: api("viewer"),
  },
  { key: "GET /api/sidecars/[sha]", probe: (i) => ({ path: `/api/sidecars/${i.sidecarSha}` }), expect: api("viewer") },
  { key: "GET /api/evaluations/[id]", probe: (i) => ({ path: `/api/evaluations/${i.runId}` }), expect: api("viewer") },
  { key: "GET /api/evaluations/[id]/compare", probe: (i) => ({ path: `/api/evaluations/${i.runId}/compare?a=none&b=tool-prune` }), expect: api("viewer") },
  { key: "GET /api/evaluations/[id]/cuts", probe: (i) => ({ path: `/api/evaluations/${i.runId}/cuts?policy=tool-prune` }), expect: api("viewer") },
  {
    key: "GET /api/evaluations/[id]/evidence",
    probe: (i) => ({ path: `/api/evaluations/${i.runId}/evidence?unit=${encodeURIComponent(i.unitKey)}` }),
    expect: api("viewer"),
  },
  { key: "GET /api/evaluations/[id]/breakdown", probe: (i) => ({ path: `/api/evaluations/${i.runId}/breakdown?by=format` }), expect: api("viewer") },
  { key: "GET /api/evaluations/[id]/export", probe: (i) => ({ path: `/api/evaluations/${i.runId}/export` }), expect: api("viewer") },
  { key: "GET /api/review/[queueId]/export", probe: (i) => ({ path: `/api/review/${i.queueId}/export?format=csv` }), expect: api("viewer") },
  // A gold file as a calibration queue: reviewers and admins; the probe's empty body is refused (400), nothing stored.
  { key: "POST /api/review/gold", probe: () => ({ path: "/api/review/gold", body: "" }), expect: api("reviewer", BAD) },
  { key: "POST /api/review/[queueId]/release", probe: (i) => ({ path: `/api/review/${i.queueId}/release`, body: "" }), expect: api("reviewer", BAD) },
  { key: "GET /api/online/[id]/hourly", probe: (i) => ({ path: `/api/online/${i.logId}/hourly` }), expect: api("viewer") },
  // A redaction report locates what was removed (never the secret): readable like the traces themselves.
  { key: "GET /api/uploads/[id]/redactions", probe: (i) => ({ path: `/api/uploads/${i.uploadId}/redactions` }), expect: api("viewer") },
  // A large upload's import, polled by the upload page: reviewers, like uploading (an unknown id is 404).
  { key: "GET /api/uploads/imports/[id]", probe: () => ({ path: "/api/uploads/imports/no-such-import" }), expect: api("reviewer", HIDDEN) },
  // Uploads: the probe has no file name, so an allowed role is refused by validation (400) and nothing is stored.
  { key: "PUT /api/uploads", probe: () => ({ path: "/api/uploads", body: "{}\n" }), expect: api("reviewer", BAD) },
  { key: "PUT /api/online/uploads", probe: () => ({ path: "/api/online/uploads", body: "timestamp\n" }), expect: api("reviewer", BAD) },
  // Simulating replays stored traces on the CPU, like starting an evaluation: reviewers. An empty body is refused by validation.
  { key: "POST /api/online/simulate", probe: () => ({ path: "/api/online/simulate", body: {} }), expect: api("reviewer", BAD) },

  // The public REST API (issue 15). Invalid probes: an upload without a file name, a run without settings.
  { key: "POST /api/v1/uploads", probe: () => ({ path: "/api/v1/uploads", body: "{}\n" }), expect: api("reviewer", BAD) },
  { key: "GET /api/v1/sessions", probe: () => ({ path: "/api/v1/sessions?limit=2" }), expect: api("viewer") },
  // A set export: exactly one session by id; the form post's probe is JSON, not a form, so an allowed role gets 400.
  { key: "GET /api/v1/sessions/export", probe: (i) => ({ path: `/api/v1/sessions/export?as=otlp&ids=${i.sessionId}` }), expect: api("viewer") },
  { key: "POST /api/v1/sessions/export", probe: () => ({ path: "/api/v1/sessions/export", body: {} }), expect: api("viewer", BAD) },
  { key: "GET /api/v1/sessions/[id]", probe: (i) => ({ path: `/api/v1/sessions/${i.sessionId}` }), expect: api("viewer") },
  { key: "GET /api/v1/sessions/[id]/export", probe: (i) => ({ path: `/api/v1/sessions/${i.sessionId}/export?as=otlp` }), expect: api("viewer") },
  { key: "GET /api/v1/sessions/[id]/span-annotations", probe: (i) => ({ path: `/api/v1/sessions/${i.sessionId}/span-annotations` }), expect: api("viewer") },
  { key: "POST /api/v1/runs", probe: () => ({ path: "/api/v1/runs", body: {} }), expect: api("reviewer", BAD) },
  { key: "GET /api/v1/runs/[id]", probe: (i) => ({ path: `/api/v1/runs/${i.runId}` }), expect: api("viewer") },
  { key: "GET /api/v1/openapi.json", probe: () => ({ path: "/api/v1/openapi.json" }), expect: api("viewer") },
  // OTLP/HTTP: the probe is an export request whose resourceSpans is not a list (400, nothing stored).
  { key: "POST /v1/traces", probe: () => ({ path: "/v1/traces", body: { resourceSpans: "not a list" } }), expect: api("reviewer", BAD) },
  {
    key: "POST /api/v1/otlp/v1/traces",
    probe: () => ({ path: "/api/v1/otlp/v1/traces", body: { resourceSpans: "not a list" } }),
    expect: api("reviewer", BAD),
  },

  // Server actions (invalid arguments: allowed roles get an `invalid_input` result, nothing changes).
  { key: `action app/_actions/admin-users.ts#createUserAction`, probe: () => ({ args: [null, []] }), expect: action("admin") },
  { key: `action app/_actions/admin-users.ts#setUserRoleAction`, probe: () => ({ args: [null, []] }), expect: action("admin") },
  { key: `action app/_actions/admin-keys.ts#createKeyAction`, probe: () => ({ args: [null, []] }), expect: action("admin") },
  { key: `action app/_actions/admin-keys.ts#revokeKeyAction`, probe: () => ({ args: [null, []] }), expect: action("admin") },
  // Deletion (admins): no confirmation word / no session id, so an allowed call is refused by validation.
  { key: `action app/_actions/admin-retention.ts#applyRetentionAction`, probe: () => ({ args: [null, []] }), expect: action("admin") },
  { key: `action app/_actions/sessions.ts#deleteSessionAction`, probe: () => ({ args: [""] }), expect: action("admin") },
  // Checkboxes: every input is valid, so the probe writes the defaults the spec's fresh database already has.
  { key: `action app/_actions/admin-settings.ts#setRedactionSettingsAction`, probe: () => ({ args: [null, []] }), expect: action("admin") },
  // LLM endpoint (admin): an empty form is invalid, clearing needs the word "clear", testing calls the endpoint in effect (none during the spec).
  { key: `action app/_actions/admin-llm-settings.ts#saveLlmSettingsAction`, probe: () => ({ args: [null, []] }), expect: action("admin") },
  { key: `action app/_actions/admin-llm-settings.ts#clearLlmSettingsAction`, probe: () => ({ args: [null] }), expect: action("admin") },
  { key: `action app/_actions/admin-llm-settings.ts#testLlmConnectionAction`, probe: () => ({ args: [] }), expect: action("admin") },
  { key: `action app/_actions/review.ts#createQueueAction`, probe: () => ({ args: [{}] }), expect: action("admin") },
  { key: `action app/_actions/review.ts#importLabelsAction`, probe: () => ({ args: [{}] }), expect: action("admin") },
  { key: `action app/_actions/review.ts#assignItemsAction`, probe: () => ({ args: [{}] }), expect: action("admin") },
  { key: `action app/_actions/review.ts#openItemAction`, probe: () => ({ args: [{}] }), expect: action("reviewer") },
  { key: `action app/_actions/review.ts#saveLabelAction`, probe: () => ({ args: [{}] }), expect: action("reviewer") },
  { key: `action app/_actions/review.ts#itemActivityAction`, probe: () => ({ args: [{}] }), expect: action("reviewer") },
  { key: `action app/_actions/review.ts#undoLabelAction`, probe: () => ({ args: [{}] }), expect: action("reviewer") },
  { key: `action app/_actions/review.ts#renewItemAction`, probe: () => ({ args: [{}] }), expect: action("reviewer") },
  { key: `action app/_actions/review.ts#releaseItemAction`, probe: () => ({ args: [{}] }), expect: action("reviewer") },
  { key: `action app/_actions/review.ts#commentAction`, probe: () => ({ args: [{}] }), expect: action("reviewer") },
  { key: `action app/_actions/review.ts#queueStatusAction`, probe: () => ({ args: [""] }), expect: action("viewer") },
  { key: `action app/_actions/review.ts#queueAgreementAction`, probe: () => ({ args: [""] }), expect: action("viewer") },
  { key: `action app/_actions/evaluation.ts#createEvaluationAction`, probe: () => ({ args: [null] }), expect: action("reviewer") },
  { key: `action app/_actions/evaluation.ts#cancelEvaluationAction`, probe: () => ({ args: [""] }), expect: action("reviewer") },
  { key: `action app/_actions/evaluation.ts#resumeEvaluationAction`, probe: () => ({ args: [""] }), expect: action("reviewer") },
  // Rollouts walk stored sessions on the CPU, like evaluations: reviewers start, cancel and resume them.
  { key: `action app/_actions/rollout.ts#createRolloutAction`, probe: () => ({ args: [null] }), expect: action("reviewer") },
  { key: `action app/_actions/rollout.ts#cancelRolloutAction`, probe: () => ({ args: [""] }), expect: action("reviewer") },
  { key: `action app/_actions/rollout.ts#resumeRolloutAction`, probe: () => ({ args: [""] }), expect: action("reviewer") },
  { key: `action app/_actions/evaluation-suites.ts#previewSuiteAction`, probe: () => ({ args: [null] }), expect: action("reviewer") },
  { key: `action app/_actions/evaluation-suites.ts#saveSuiteFilterAction`, probe: () => ({ args: [null] }), expect: action("reviewer") },
  { key: `action app/_actions/evaluation-suites.ts#deleteSuiteFilterAction`, probe: () => ({ args: [""] }), expect: action("reviewer") },
  { key: `action app/_actions/online.ts#previewUsageAction`, probe: () => ({ args: [{}] }), expect: action("reviewer") },
  { key: `action app/_actions/online.ts#usageFromTracesAction`, probe: () => ({ args: [{}] }), expect: action("reviewer") },
];

/**
 * Callers with a project API key (`Authorization: Bearer tfk_…`, no cookies, no Origin): a `read`
 * key, an `ingest` key, and a revoked key. Their answers follow from the rows above (issue 15):
 * pages, server actions and next-auth ignore the header, so a key there is an anonymous visitor;
 * API routes (and the OTLP endpoint /v1/traces) accept a read key where a viewer is allowed (a viewer's answer), an ingest key only on
 * the routes that take traces in (a reviewer's answer; 403 elsewhere), and refuse a revoked key (401).
 */
export type KeyWho = "readKey" | "ingestKey" | "revokedKey";
export const KEY_WHO: readonly KeyWho[] = ["readKey", "ingestKey", "revokedKey"];

/** The route handlers that pass `{ ingest: true }` to requireApiUser. */
export const INGEST_ROUTES: ReadonlySet<string> = new Set([
  "PUT /api/uploads",
  "GET /api/uploads/imports/[id]",
  "POST /api/v1/uploads",
  "POST /api/v1/runs",
  "GET /api/v1/openapi.json",
  "POST /v1/traces",
  "POST /api/v1/otlp/v1/traces",
]);

export function keyAnswer(row: MatrixRow, who: KeyWho): Answer {
  if (!/^(GET|POST|PUT|PATCH|DELETE) \/(api|v1)\//.test(row.key) || row.key.includes("/api/auth/")) return row.expect.anonymous;
  if (who === "revokedKey") return API_401;
  if (who === "readKey") return row.expect.viewer;
  return INGEST_ROUTES.has(row.key) ? row.expect.reviewer : API_403;
}
