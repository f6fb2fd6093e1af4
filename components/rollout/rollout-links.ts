/** The links the rollout pages give, one place so the table and the call page agree. */

/** `/sessions/<id>#message-<n>`: the session's replay page scrolled to the message of the call. */
export function sessionMessageHref(sessionId: string, message: number): string {
  return `/sessions/${encodeURIComponent(sessionId)}#message-${message}`;
}

/** `/rollouts/<run>/sessions/<session>/calls/<n>?policy=<id>`: the prompt a policy's rollout gave the model at call n (1-based; `call` is 0-based). */
export function rolloutCallHref(runId: string, sessionId: string, policy: string, call: number): string {
  return `/rollouts/${encodeURIComponent(runId)}/sessions/${encodeURIComponent(sessionId)}/calls/${call + 1}?${new URLSearchParams({ policy }).toString()}`;
}
