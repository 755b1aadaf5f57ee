#!/usr/bin/env python3
"""Turns Protocol/examples/*.jsonl transcripts into seed inputs for LifebusDaemonFuzzer (one file per transcript).

    transcript-seeds.py OUT_DIR TRANSCRIPT...

Each transcript connection ("as": NAME, default "main") becomes a peer by its role: the one whose hello says app is
peer 0, controller 1, observer 2; a connection that never says hello, or a second one of a role, takes a free peer
(3 first). `send` and `sendRaw` become lines for that peer (see FuzzScript.swift); `expect` becomes a settle line.
"""
import json
import os
import sys

ROLE_PEERS = {"app": 0, "controller": 1, "observer": 2}


def role_of(step):
    send = step.get("send")
    if isinstance(send, dict) and send.get("method") == "hello":
        params = send.get("params")
        if isinstance(params, dict):
            return params.get("role")
    return None


def assign_peers(steps):
    roles = {}
    for step in steps:
        name = step.get("as", "main")
        if name not in roles:
            roles[name] = role_of(step)
    peers, taken = {}, set()
    for name, role in roles.items():
        wanted = ROLE_PEERS.get(role)
        if wanted is not None and wanted not in taken:
            peers[name] = wanted
            taken.add(wanted)
    for name in roles:
        if name not in peers:
            free = next((p for p in (3, 2, 1, 0) if p not in taken), 3)
            peers[name] = free
            taken.add(free)
    return peers


def convert(path):
    with open(path, encoding="utf-8") as transcript:
        steps = [json.loads(line) for line in transcript if line.strip()]
    peers = assign_peers(steps)
    out = []
    for step in steps:
        peer = peers[step.get("as", "main")]
        if "send" in step:
            out.append(f"{peer}{json.dumps(step['send'], separators=(',', ':'))}\n")
        elif "sendRaw" in step:
            out.append(f"{peer}{step['sendRaw']}\n")
        elif "expect" in step:
            out.append("9\n")
    return "".join(out).encode("utf-8")


def main():
    out_dir, transcripts = sys.argv[1], sys.argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    for path in transcripts:
        name = "transcript-" + os.path.basename(path).removesuffix(".jsonl")
        with open(os.path.join(out_dir, name), "wb") as seed:
            seed.write(convert(path))


if __name__ == "__main__":
    main()
