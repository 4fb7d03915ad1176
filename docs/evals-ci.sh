#!/usr/bin/env bash
# The CI step of docs/evals.md: plays an agent's suite of scenarios (its live agent, or its draft with DRAFT=true),
# waits for the result, prints the pass rate, each failure with its reasons and the diff against the previous run,
# and exits 1 when a scenario failed (2 when the run could not start or finish).
#   BASE   the REST API's base URL, e.g. https://api.example.com/en/api/v1
#   KEY    an API key of the workspace (sent in the X-Service-Api-Key header, never in the URL)
#   AGENT  the agent's UUID
#   DRAFT  true to play the draft (default false); TIMEOUT seconds to wait (default 600)
# Needs bash, curl and node (for JSON).
set -euo pipefail
: "${BASE:?set BASE}" "${KEY:?set KEY}" "${AGENT:?set AGENT}"
DRAFT="${DRAFT:-false}"
TIMEOUT="${TIMEOUT:-600}"

api() { curl -sS -H "x-service-api-key: $KEY" -H 'content-type: application/json' "$@"; }
# Reads the envelope on stdin and prints the value at a path of its data (exit 2 with the message when it is an error).
field() { node -e '
  let text = ""; process.stdin.on("data", (c) => (text += c)).on("end", () => {
    const body = JSON.parse(text);
    if (!body.status) { console.error(`${body.error?.code}: ${body.msg}`); process.exit(2); }
    console.log(process.argv[1].split(".").reduce((value, key) => value?.[key], body.data));
  });' "$1"; }

started=$(api -X POST "$BASE/evals/run/" -H "idempotency-key: ci-$AGENT-$(date +%s)-$$" -d "{\"agent_id\":\"$AGENT\",\"draft\":$DRAFT}")
run_id=$(printf '%s' "$started" | field eval_run.eval_run_id)
echo "eval run $run_id of agent $AGENT ($([ "$DRAFT" = true ] && echo draft || echo live))"

deadline=$(( $(date +%s) + TIMEOUT ))
while :; do
  status=$(api "$BASE/evals/run_status/?eval_run_id=$run_id")
  state=$(printf '%s' "$status" | field eval_run.status)
  if [ "$state" = completed ] || [ "$state" = failed ]; then break; fi
  [ "$(date +%s)" -lt "$deadline" ] || { echo "eval run $run_id still $state after ${TIMEOUT}s" >&2; exit 2; }
  sleep 2
done

printf '%s' "$status" | node -e '
  let text = ""; process.stdin.on("data", (c) => (text += c)).on("end", () => {
    const { eval_run: run, results, diff } = JSON.parse(text).data;
    if (run.status === "failed") { console.log(`eval run failed: ${run.error}`); process.exit(2); }
    console.log(`pass rate ${Math.round((run.pass_rate ?? 0) * 100)}% (${run.passed}/${run.passed + run.failed})`);
    for (const result of results.filter((r) => !r.passed)) {
      const reasons = result.error ? [result.error] : result.expectations.filter((e) => e.outcome === "failed").map((e) => e.reason);
      console.log(`FAILED ${result.name}: ${reasons.join("; ")}`);
    }
    const notGraded = results.flatMap((r) => r.expectations).filter((e) => e.outcome === "not_graded").length;
    if (notGraded) console.log(`${notGraded} judge criteria not graded (the configured model cannot grade)`);
    if (diff?.previous_eval_run_id) console.log(`against ${diff.previous_eval_run_id}: ${diff.fixed.length} fixed, ${diff.broke.length} broke, ${diff.still_failing.length} still failing`);
    process.exit(run.failed > 0 ? 1 : 0);
  });'
