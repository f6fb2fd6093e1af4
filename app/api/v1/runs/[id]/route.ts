/**
 * `GET /api/v1/runs/{id}`: the run's status, progress and results so far — the very answer of
 * `GET /api/evaluations/[id]` (the run page's data), under the public API's path. A `read` key or a viewer.
 */
export { GET } from "../../../evaluations/[id]/route";

export const dynamic = "force-dynamic";
