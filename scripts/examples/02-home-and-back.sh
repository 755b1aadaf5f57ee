#!/usr/bin/env bash
# Home and back: the app leaves the front (willResignActive, didEnterBackground), is suspended, and returns
# when activated (willEnterForeground, didBecomeActive) — the iOS 4+ multitasking round trip.
#
#   LIFEBUS_BIN=path/to/bin ./scripts/examples/02-home-and-back.sh
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
"$bin/lifebus" wait com.example.Shell active --timeout 5s >/dev/null

"$bin/lifebus" fire home
check "home sends it to the background, then it is suspended"
"$bin/lifebus" wait com.example.Shell suspended --timeout 5s >/dev/null && ok
check "with willResignActive then didEnterBackground"
transitions com.example.Shell | tail -2 | tr '\n' ';' \
    | grep -qx "willResignActive active->inactive ok;didEnterBackground inactive->background ok;" \
    || fail "$(transitions com.example.Shell)"
ok

check "status shows no app in front"
"$bin/lifebus" status --json | python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["foreground"] is not None)' \
    || fail "$("$bin/lifebus" status)"
ok

"$bin/lifebus" fire activate com.example.Shell
check "activating it brings it back with willEnterForeground then didBecomeActive"
"$bin/lifebus" wait com.example.Shell active --timeout 5s >/dev/null
transitions com.example.Shell | tail -2 | tr '\n' ';' \
    | grep -Eqx "willEnterForeground (suspended|background)->inactive ok;didBecomeActive inactive->active ok;" \
    || fail "$(transitions com.example.Shell)"
ok
echo "02-home-and-back: all checks passed"
