#!/usr/bin/env bash
# A scenario file instead of a loop of CLI calls: DeepThoughts is installed from a manifest, a call comes in and is
# answered, and the app must have saved its state and left the front — checked under iOS 3, 4 and 7 at once (the
# app-delegate eras: DeepThoughts does not adopt scenes, so it could not launch under iOS 27), each on a private
# broker with the manual clock that `lifebus run` starts and stops itself. The report shows where the profiles
# differ; report.xml is JUnit for a CI's test tab.
#
#   PATH=/path/to/lifebus/bin:$PATH ./08-scenario.sh   (needs lifebus, lifebusd and DeepThoughts on PATH)
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/lifebus-example.XXXXXX")
trap 'rm -rf "$work"' EXIT

printf '{"id": "com.example.DeepThoughts", "executable": "%s", "arguments": ["--state-file", "%s"]}\n' \
    "$(command -v DeepThoughts)" "$work/DeepThoughts.state" >"$work/deepthoughts.json"
cat >"$work/call-answered.yaml" <<'YAML'
name: A call answered
profiles: [ios3, ios4, ios7]
apps:
  - manifest: deepthoughts.json
steps:
  - launch: com.example.DeepThoughts
  - fire: call
  - fire: call --answer
  - expect:
      callbacks: [didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground]
      state: suspended
      mark: {name: state-saved, data: {reason: didEnterBackground}}
      outcome: ok
      profiles:
        ios3:
          callbacks: [didFinishLaunching, didBecomeActive, willResignActive, willTerminate]
          state: notRunning
          mark: {name: state-saved, data: {reason: willTerminate}}
  - advance: 5s
  - fire: call --end
YAML

lifebus run "$work/call-answered.yaml" --profile all --junit "$work/report.xml" | tee "$work/report.txt"
grep -q '3 passed, 0 failed' "$work/report.txt"
grep -q 'profiles differ in A call answered' "$work/report.txt"
report=$(cat "$work/report.xml")
grep -q '<testcase name="A call answered \[ios3\]"' <<<"$report"
echo "08-scenario: all checks passed"
