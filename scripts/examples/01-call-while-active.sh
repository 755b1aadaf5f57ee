#!/usr/bin/env bash
# An incoming call while an app is in front: it resigns active; declining the call brings it back.
#
#   PATH=/path/to/lifebus/bin:$PATH ./01-call-while-active.sh      (needs `lifebus` and `lifebusd` on PATH)
#
# Starts its own broker on a temporary socket, joins the bus with `lifebus subscribe` (swap in your own program:
# `lifebus subscribe --id ID --on willResignActive='./save-draft.sh' -- ./my-app`), fires the call, and asserts
# with `lifebus expect` (exit 1, and so this script, when the app misbehaves).
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
start() { "$@" & pids+=($!); disown $!; }   # disowned: no "Killed" notice from bash when the app is killed

start lifebusd --journal "$work/journal.jsonl" --log-level error
lifebus ping --wait 5s >/dev/null
start lifebus subscribe --id com.example.Shell >"$work/app.jsonl"
lifebus wait com.example.Shell active >/dev/null

lifebus fire call --expect ok
lifebus expect com.example.Shell --callbacks willResignActive --state inactive --outcome ok

lifebus fire call --decline --expect ok
lifebus expect com.example.Shell --callbacks didBecomeActive --state active --outcome ok

grep -q '"willResignActive"' "$work/app.jsonl"    # the app printed the callbacks it got, one JSON line each
echo "01-call-while-active: all checks passed"
