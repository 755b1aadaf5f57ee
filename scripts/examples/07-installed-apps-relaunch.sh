#!/usr/bin/env bash
# Installed apps: the broker starts them itself. Both example apps are installed from manifests (lifebusd --apps),
# launched by the broker; a critical memory warning kills the suspended one silently (jetsam), and `fire launch`
# brings it back where it was: its launch options say afterJetsam, name the previous pid and hand back the state it
# saved. `lifebus history` shows the process records (pids, kill reason) beside the transitions.
#
#   PATH=/path/to/lifebus/bin:$PATH ./07-installed-apps-relaunch.sh   (needs lifebus, lifebusd, ReturnMeTo and
#                                                                       DeepThoughts on PATH)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/lifebus-example.XXXXXX")
export LIFEBUS_SOCKET=$work/lifebus.sock
broker=
cleanup() {
    if [ -n "$broker" ]; then
        kill "$broker" 2>/dev/null || true
        while kill -0 "$broker" 2>/dev/null; do sleep 0.05; done   # it stops its apps before it exits
    fi
    rm -rf "$work"
}
trap cleanup EXIT

mkdir "$work/apps"
for app in ReturnMeTo DeepThoughts; do
    printf '{"id": "com.example.%s", "executable": "%s", "arguments": ["--state-file", "%s"]}\n' \
        "$app" "$(command -v "$app")" "$work/$app.state" >"$work/apps/$app.json"
done
lifebusd --journal "$work/journal.jsonl" --log-level error --apps "$work/apps" &
broker=$!
disown "$broker"
lifebus ping --wait 5s >/dev/null
lifebus apps

lifebus fire launch com.example.ReturnMeTo --expect ok >/dev/null     # the broker spawns it
lifebus fire launch com.example.DeepThoughts --expect ok >/dev/null   # ReturnMeTo leaves the front: suspended
lifebus wait com.example.ReturnMeTo suspended >/dev/null
lifebus fire memory-warning --level critical                          # the suspended app dies without notice
lifebus expect com.example.ReturnMeTo --state notRunning --outcome jetsam

lifebus fire launch com.example.ReturnMeTo --expect ok >/dev/null     # spawned again, with its launch options
lifebus history com.example.ReturnMeTo
history=$(lifebus history com.example.ReturnMeTo --json)
grep -q '"event":"killed".*"reason":"jetsam"' <<<"$history"
grep -q '"launch":{"reason":"afterJetsam","previousPid":[0-9]' <<<"$history"
grep -q '"name":"launch-options".*"restorationState":"shown=1"' <<<"$history"   # the app got its state back
echo "07-installed-apps-relaunch: all checks passed"
