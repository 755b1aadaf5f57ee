#!/usr/bin/env bash
# The watchdog: an app whose willTerminate takes 7 s is killed when its budget runs out. `--budget
# willTerminate=200ms` shortens that one budget (the others keep theirs), so the example runs in a moment.
#
#   PATH=/path/to/lifebus/bin:$PATH ./03-watchdog-kills-slow-terminate.sh      (needs `lifebus` and `lifebusd`)
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

start lifebusd --journal "$work/journal.jsonl" --budget willTerminate=200ms --log-level error
lifebus ping --wait 5s >/dev/null
start lifebus subscribe --id com.example.Slow --delay willTerminate=7s >"$work/app.jsonl"
app_pid=${pids[-1]}
lifebus wait com.example.Slow active >/dev/null
lifebus status com.example.Slow --json | grep -q "\"pid\":$app_pid,"   # the broker knows the pid from the kernel

if lifebus fire terminate com.example.Slow --fail-on watchdog; then
    echo "example failed: the slow willTerminate was not caught by the watchdog" >&2
    exit 1
fi
lifebus expect com.example.Slow --callbacks willTerminate --outcome watchdog --state notRunning
echo "03-watchdog-kills-slow-terminate: all checks passed"
