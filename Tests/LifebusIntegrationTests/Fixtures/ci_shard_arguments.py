"""Prints the `--shard` argument every runner of docs/ci's examples passes, one per line as `SOURCE ARGUMENT`.

GitHub Actions: for each value of `jobs.shard.strategy.matrix.shard`, the `run` of the step that calls
`lifebus run … --shard`, with `${{ matrix.shard }}` replaced. Kubernetes: for each completion index of the Indexed
Job, its container's command evaluated by `sh` with JOB_COMPLETION_INDEX set (`echo` in place of `lifebus`).
"""
import re
import shlex
import subprocess
import sys

import yaml


def shard_of(command: str) -> str:
    words = shlex.split(command)
    return words[words.index("--shard") + 1]


def github(path: str) -> None:
    with open(path) as file:
        workflow = yaml.safe_load(file)
    job = workflow["jobs"]["shard"]
    values = job["strategy"]["matrix"]["shard"]
    runs = [step["run"] for step in job["steps"] if "--shard" in step.get("run", "")]
    assert len(runs) == 1, runs
    for value in values:
        command = runs[0].replace("${{ matrix.shard }}", str(value))
        command = re.sub(r"\$\( \[.*?\] && echo .*? \)", "", command)  # the optional --timings
        print("github", shard_of(command))
    assert "merge" in workflow["jobs"] and "lifebus merge" in str(workflow["jobs"]["merge"])


def kubernetes(path: str) -> None:
    with open(path) as file:
        jobs = list(yaml.safe_load_all(file))
    shards = next(job for job in jobs if job["spec"].get("completionMode") == "Indexed")
    assert any("lifebus merge" in str(job) for job in jobs)
    container = shards["spec"]["template"]["spec"]["containers"][0]
    script = container["args"][0].replace("lifebus run", "echo lifebus run", 1)
    for index in range(shards["spec"]["completions"]):
        out = subprocess.run(["sh", "-c", script], env={"JOB_COMPLETION_INDEX": str(index), "PATH": "/usr/bin:/bin"},
                             capture_output=True, text=True, check=True).stdout
        print("kubernetes", shard_of(out))


github(sys.argv[1])
kubernetes(sys.argv[2])
