#!/usr/bin/env bash
# The journal outlives the broker: every transition a controller was told about is on disk before the answer,
# so after kill -9 of the broker, `lifebus history --journal` (no broker needed) shows the same history.
#
#   LIFEBUS_BIN=path/to/bin ./scripts/examples/05-journal-after-broker-killed.sh
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


"$bin/lifebusd" --socket "$LIFEBUS_SOCKET" --journal "$work/journal.jsonl" --log-level error &
broker_pid=$!
pids+=("$broker_pid")
"$bin/lifebus" ping --wait 5s >/dev/null
"$bin/lifebus" subscribe --id com.example.Shell >"$work/app.jsonl" &
pids+=($!)
"$bin/lifebus" wait com.example.Shell active --timeout 5s >/dev/null
"$bin/lifebus" fire home >/dev/null
"$bin/lifebus" fire activate com.example.Shell >/dev/null
"$bin/lifebus" fire call >/dev/null
"$bin/lifebus" fire call --decline >/dev/null
"$bin/lifebus" history --json >"$work/told.jsonl"

kill -KILL "$broker_pid"
wait "$broker_pid" 2>/dev/null || true

check "the broker is gone: lifebus history without --journal cannot reach it (exit 3)"
status=0
"$bin/lifebus" history >/dev/null 2>&1 || status=$?
[ "$status" -eq 3 ] || fail "exit status $status"
ok

check "the journal holds every entry the broker reported"
"$bin/lifebus" history --journal "$work/journal.jsonl" --json >"$work/journal-read.jsonl"
python3 - "$work/told.jsonl" "$work/journal-read.jsonl" <<'PY' || fail "the journal differs from what the broker told"
import json, sys
told = [json.loads(line) for line in open(sys.argv[1])]
kept = [json.loads(line) for line in open(sys.argv[2])]
missing = [entry for entry in told if entry not in kept]
sys.exit(1 if missing or len(told) < 8 else 0)
PY
ok

check "the journal reads as a table too"
"$bin/lifebus" history --journal "$work/journal.jsonl" com.example.Shell | tee "$work/table.txt" | tail -4
grep -q "didBecomeActive" "$work/table.txt" || fail "no didBecomeActive in the table"
ok
echo "05-journal-after-broker-killed: all checks passed"
