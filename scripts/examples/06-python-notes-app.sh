#!/usr/bin/env bash
# A note-taking program in Python, tested from the shell: it must save its draft when it leaves the front
# (didEnterBackground). It runs under `lifebus subscribe -- python3 notes.py serve`; the hook that saves also
# journals a `state-saved` mark with `lifebus mark`. NOTES_SAVE_SECONDS=5 makes the save slower than its 3 s
# budget: the watchdog kills the program and its hook for real (the hook's `python3 notes.py save` too: nothing
# outlives the script), and this script fails.
#
#   PATH=/path/to/lifebus/bin:$PATH ./06-python-notes-app.sh      (needs `lifebus`, `lifebusd` and python3)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/lifebus-example.XXXXXX") && cd "$work"
export LIFEBUS_SOCKET=$work/lifebus.sock
pids=()
cleanup() {
    kill "${pids[@]}" 2>/dev/null || true
    for pid in "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; done  # gone before the rm
    rm -rf "$work"
}
trap cleanup EXIT
start() { "$@" & pids+=($!); disown $!; }
cat >notes.py <<'PY'
import json, os, subprocess, sys, time
if sys.argv[1] == "serve":                     # the app: types a draft, a line every 50 ms
    for n in range(1_000_000):
        with open("draft.txt", "a") as draft: draft.write(f"note {n}\n")
        time.sleep(0.05)
else:                                          # the save, run by the didEnterBackground hook
    time.sleep(float(os.environ.get("NOTES_SAVE_SECONDS", "0")))
    notes = open("draft.txt").read().splitlines() if os.path.exists("draft.txt") else []
    json.dump(notes, open("notes.json", "w"))
    subprocess.run(["lifebus", "mark", "state-saved", "--data", json.dumps({"notes": len(notes), "file": "notes.json"})], check=True)
PY

start lifebusd --journal journal.jsonl --budget didEnterBackground=3s --log-level error
lifebus ping --wait 5s >/dev/null
start lifebus subscribe --id com.example.Notes --on didEnterBackground='python3 notes.py save' -- python3 notes.py serve
lifebus wait com.example.Notes active >/dev/null
lifebus fire home
lifebus expect com.example.Notes --callbacks willResignActive,didEnterBackground --outcome ok --state suspended \
    --mark state-saved --data-has file=notes.json
echo "06-python-notes-app: all checks passed"
