#!/usr/bin/env bash
# The watchdog: an app whose willTerminate takes 7 s is killed when its 5 s budget runs out. With --time-scale 0.01
# every budget is a hundredth (willTerminate: 50 ms), so the example runs in a moment.
#
#   LIFEBUS_BIN=path/to/bin ./scripts/examples/03-watchdog-kills-slow-terminate.sh
set -euo pipefail
bin=${LIFEBUS_BIN:-$(cd "$(dirname "$0")/../.." && swift build --show-bin-path)}
work=$(mktemp -d /tmp/lifebus-example.XXXXXX)
export LIFEBUS_SOCKET=$work/lifebus.sock
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
check() { printf 'check: %s ... ' "$1"; }
ok() { echo ok; }
fail() { echo "FAILED"; echo "example failed: $*" >&2; exit 1; }
# The app's transitions as "callback from->to outcome" lines, oldest first, from `lifebus history --json`.
transitions() {
    "$bin/lifebus" history "$1" --json | python3 -c '
import json, sys
for line in sys.stdin:
    entry = json.loads(line)
    if entry["type"] == "transition":
        print(entry["callback"], entry["from"] + "->" + entry["to"], entry["outcome"])'
}


"$bin/lifebusd" --socket "$LIFEBUS_SOCKET" --journal "$work/journal.jsonl" --time-scale 0.01 --log-level error &
pids+=($!)
"$bin/lifebus" ping --wait 5s >/dev/null
"$bin/lifebus" subscribe --id com.example.Slow --delay willTerminate=7s >"$work/app.jsonl" &
app_pid=$!
pids+=("$app_pid")
"$bin/lifebus" wait com.example.Slow active --timeout 5s >/dev/null

check "the broker knows the app by its process id (from the kernel)"
broker_pid_of_app=$("$bin/lifebus" status com.example.Slow --json \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["apps"][0]["pid"])')
[ "$broker_pid_of_app" = "$app_pid" ] || fail "status says pid $broker_pid_of_app, we started $app_pid"
ok

"$bin/lifebus" fire terminate --app com.example.Slow
check "willTerminate ran out of its budget: outcome watchdog"
transitions com.example.Slow | tail -1 | grep -Eqx "willTerminate (active|inactive)->notRunning watchdog" \
    || fail "$(transitions com.example.Slow)"
ok

check "the process was killed with SIGKILL"
status=0
wait "$app_pid" || status=$?
[ "$status" -eq 137 ] || fail "the app exited with status $status, not 137 (SIGKILL)"
ok

check "the app is notRunning"
"$bin/lifebus" wait com.example.Slow notRunning --timeout 1s >/dev/null && ok
echo "03-watchdog-kills-slow-terminate: all checks passed"
