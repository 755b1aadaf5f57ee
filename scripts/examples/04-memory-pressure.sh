#!/usr/bin/env bash
# Memory pressure: a warning reaches every running app (active or background) but no suspended one; a critical
# warning first kills the suspended apps without notice (jetsam), then warns the rest.
#
#   LIFEBUS_BIN=path/to/bin ./scripts/examples/04-memory-pressure.sh
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

warnings() { transitions "$1" | grep -c "^didReceiveMemoryWarning" || true; }

"$bin/lifebusd" --socket "$LIFEBUS_SOCKET" --journal "$work/journal.jsonl" --log-level error &
pids+=($!)
"$bin/lifebus" ping --wait 5s >/dev/null
# Idle comes first and is pushed out by Music (no background mode: suspended); Music plays audio, so when Front
# arrives it stays in the background.
"$bin/lifebus" subscribe --id com.example.Idle >"$work/idle.jsonl" &
pids+=($!)
"$bin/lifebus" wait com.example.Idle active --timeout 5s >/dev/null
"$bin/lifebus" subscribe --id com.example.Music --background-mode audio >"$work/music.jsonl" &
pids+=($!)
"$bin/lifebus" wait com.example.Music active --timeout 5s >/dev/null
"$bin/lifebus" subscribe --id com.example.Front >"$work/front.jsonl" &
pids+=($!)
"$bin/lifebus" wait com.example.Front active --timeout 5s >/dev/null
"$bin/lifebus" wait com.example.Music background --timeout 5s >/dev/null
"$bin/lifebus" wait com.example.Idle suspended --timeout 5s >/dev/null
"$bin/lifebus" status

"$bin/lifebus" fire memory-warning
check "a warning reaches the front app and the audio app, not the suspended one"
[ "$(warnings com.example.Front)" = 1 ] && [ "$(warnings com.example.Music)" = 1 ] \
    && [ "$(warnings com.example.Idle)" = 0 ] || fail "$("$bin/lifebus" history)"
ok

"$bin/lifebus" fire memory-warning --level critical
check "a critical warning kills the suspended app first (jetsam)"
"$bin/lifebus" wait com.example.Idle notRunning --timeout 1s >/dev/null
transitions com.example.Idle | tail -1 | grep -qx "None suspended->notRunning jetsam" \
    || fail "$(transitions com.example.Idle)"
ok
check "and warns the running ones again"
[ "$(warnings com.example.Front)" = 2 ] && [ "$(warnings com.example.Music)" = 2 ] || fail "$("$bin/lifebus" history)"
ok
echo "04-memory-pressure: all checks passed"
