#!/usr/bin/env bash
# An incoming call while an app is in front: it resigns active; declining the call brings it back.
#
#   LIFEBUS_BIN=path/to/bin ./scripts/examples/01-call-while-active.sh
#
# Starts its own broker on a temporary socket, joins the bus with `lifebus subscribe` (swap in your own program:
# `lifebus subscribe --id ID --on willResignActive='./save-draft.sh'`), fires the call, and asserts on the journal.
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
pids+=($!)
"$bin/lifebus" ping --wait 5s >/dev/null
"$bin/lifebus" subscribe --id com.example.Shell >"$work/app.jsonl" &
pids+=($!)

check "the app launches into the front"
"$bin/lifebus" wait com.example.Shell active --timeout 5s >/dev/null && ok

"$bin/lifebus" fire call
check "a ringing call makes it inactive"
"$bin/lifebus" wait com.example.Shell inactive --timeout 5s >/dev/null && ok
check "with willResignActive, answered in time"
transitions com.example.Shell | tail -1 | grep -qx "willResignActive active->inactive ok" || fail "$(transitions com.example.Shell)"
ok

"$bin/lifebus" fire call --decline
check "declining the call brings it back to active with didBecomeActive"
"$bin/lifebus" wait com.example.Shell active --timeout 5s >/dev/null
transitions com.example.Shell | tail -1 | grep -qx "didBecomeActive inactive->active ok" || fail "$(transitions com.example.Shell)"
ok

check "the app printed both callbacks"
grep -q '"willResignActive"' "$work/app.jsonl" && grep -c '"didBecomeActive"' "$work/app.jsonl" | grep -qx 2 \
    || fail "$(cat "$work/app.jsonl")"
ok
echo "01-call-while-active: all checks passed"
