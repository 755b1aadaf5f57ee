#!/usr/bin/env bash
# Memory pressure: a warning reaches every running app (active or background) but no suspended one; a critical
# warning first kills the suspended apps without notice (jetsam), then warns the rest.
#
#   PATH=/path/to/lifebus/bin:$PATH ./04-memory-pressure.sh      (needs `lifebus` and `lifebusd` on PATH)
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
# Idle comes first and is pushed out by Music (no background mode: suspended); Music plays audio, so when Front
# arrives it stays in the background.
start lifebus subscribe --id com.example.Idle >/dev/null
lifebus wait com.example.Idle active >/dev/null
start lifebus subscribe --id com.example.Music --background-mode audio >/dev/null
lifebus wait com.example.Music active >/dev/null
start lifebus subscribe --id com.example.Front >/dev/null
lifebus wait com.example.Front active >/dev/null
lifebus wait com.example.Music background >/dev/null
lifebus wait com.example.Idle suspended >/dev/null

lifebus fire memory-warning --expect ok
lifebus expect com.example.Front --callbacks didReceiveMemoryWarning --state active
lifebus expect com.example.Music --callbacks didReceiveMemoryWarning --state background
lifebus expect com.example.Idle --callbacks none --state suspended

lifebus fire memory-warning --level critical
lifebus expect com.example.Idle --outcome jetsam --state notRunning
lifebus expect com.example.Front --callbacks didReceiveMemoryWarning --outcome ok
lifebus expect com.example.Music --callbacks didReceiveMemoryWarning --outcome ok
echo "04-memory-pressure: all checks passed"
