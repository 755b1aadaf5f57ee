#!/usr/bin/env bash
# Home and back: the app leaves the front (willResignActive, didEnterBackground), is suspended, and returns
# when activated (willEnterForeground, didBecomeActive) — the iOS 4+ multitasking round trip.
#
#   PATH=/path/to/lifebus/bin:$PATH ./02-home-and-back.sh      (needs `lifebus` and `lifebusd` on PATH)
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
lifebus ping --wait 5s >/dev/null
start lifebus subscribe --id com.example.Shell >"$work/app.jsonl"
lifebus wait com.example.Shell active >/dev/null

lifebus fire home --expect ok
lifebus wait com.example.Shell suspended >/dev/null
lifebus expect com.example.Shell --callbacks willResignActive,didEnterBackground --state suspended --outcome ok
lifebus status --json | grep -q '"foreground":null'          # no app in front now

lifebus fire activate com.example.Shell --expect ok
lifebus expect com.example.Shell --callbacks willEnterForeground,didBecomeActive --state active --outcome ok
echo "02-home-and-back: all checks passed"
