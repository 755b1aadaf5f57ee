#!/usr/bin/env bash
# The journal outlives the broker: every transition a controller was told about is on disk before the answer,
# so after kill -9 of the broker, `lifebus history --journal` (no broker needed) shows the same history.
#
#   PATH=/path/to/lifebus/bin:$PATH ./05-journal-after-broker-killed.sh      (needs `lifebus` and `lifebusd`)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/lifebus-example.XXXXXX")
export LIFEBUS_SOCKET=$work/lifebus.sock
pids=()
cleanup() {
    kill "${pids[@]}" 2>/dev/null || true
    for pid in "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; done  # gone before the rm
    rm -rf "$work"
}
trap cleanup EXIT
start() { "$@" & pids+=($!); disown $!; }

start lifebusd --journal "$work/journal.jsonl" --log-level error
broker_pid=${pids[-1]}
lifebus ping --wait 5s >/dev/null
start lifebus subscribe --id com.example.Shell >/dev/null
lifebus wait com.example.Shell active >/dev/null
for event in home "activate com.example.Shell" call "call --decline"; do
    lifebus fire $event --expect ok >/dev/null
done
lifebus history --json >"$work/told.jsonl"          # the run record that opens the journal, then what happened
kill -KILL "$broker_pid"

status=0
lifebus history >/dev/null 2>&1 || status=$?
[ "$status" -eq 3 ] || { echo "example failed: history without a broker exited $status, not 3" >&2; exit 1; }

lifebus history --journal "$work/journal.jsonl" --json >"$work/kept.jsonl"
cmp "$work/told.jsonl" "$work/kept.jsonl"   # every entry the broker told of is in the journal
[ "$(wc -l <"$work/told.jsonl")" -ge 9 ]
lifebus history --journal "$work/journal.jsonl" com.example.Shell | grep didBecomeActive >/dev/null  # not -q: under pipefail an early exit would SIGPIPE lifebus
echo "05-journal-after-broker-killed: all checks passed"
