#!/usr/bin/env python3
"""Validates the messages of Protocol/examples/*.jsonl against Protocol/schemas/*.json (JSON Schema 2020-12).

Each transcript line is an object: {"comment": ...}, {"send": message-or-batch}, {"sendRaw": "text"} or
{"expect": message-or-batch}. Sent messages are validated fully (envelope, and params of known methods);
expected messages the same way except that a "$any" placeholder matches anything. Results of the methods in
RESULTS are checked by pairing each response id with the method of the request that carried it, so a transcript
gives distinct methods distinct ids across its connections ("as"). sendRaw lines are deliberately malformed and
are skipped.

    python3 Protocol/validate-examples.py [FILE.jsonl ...]     exit status 0 when every message is valid
"""
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

HERE = os.path.dirname(os.path.abspath(__file__))
CALLBACKS = ["didFinishLaunching", "didBecomeActive", "willResignActive", "didEnterBackground",
             "willEnterForeground", "willTerminate", "didReceiveMemoryWarning", "configurationForConnecting",
             "didDiscardSceneSessions", "willConnectTo", "restoreInteractionState", "sceneWillEnterForeground",
             "sceneDidBecomeActive", "sceneWillResignActive", "sceneDidEnterBackground", "stateRestorationActivity",
             "sceneDidDisconnect", "openURLContexts", "protectedDataWillBecomeUnavailable",
             "protectedDataDidBecomeAvailable", "didReceiveRemoteNotification", "performBackgroundTask",
             "backgroundTaskWillExpire"]
PARAMS = {
    "hello": "hello.params.schema.json",
    "fire": "fire.params.schema.json",
    "status": "status.params.schema.json",
    "wait": "wait.params.schema.json",
    "history": "history.params.schema.json",
    "mark": "mark.params.schema.json",
    "beginBackgroundTask": "beginBackgroundTask.params.schema.json",
    "endBackgroundTask": "endBackgroundTask.params.schema.json",
    "registerBackgroundTask": "registerBackgroundTask.params.schema.json",
    "submitBackgroundTask": "submitBackgroundTask.params.schema.json",
    "setTaskCompleted": "setTaskCompleted.params.schema.json",
    "reportMemory": "reportMemory.params.schema.json",
    **{callback: "callback.params.schema.json" for callback in CALLBACKS},
}
# Notifications whose params differ from the request of the same name (observers get records).
NOTIFICATION_PARAMS = {
    "transition": "transition.record.schema.json",
    "mark": "mark.record.schema.json",
    "backgroundTaskExpiring": "backgroundTaskExpiring.params.schema.json",
    "protectedDataChanged": "protectedData.result.schema.json",
    "task": "task.record.schema.json",
    "push": "push.record.schema.json",
    "protectedData": "protectedData.record.schema.json",
}
RESULTS = {
    "hello": "hello.result.schema.json",
    "ping": "ping.result.schema.json",
    "fire": "fire.result.schema.json",
    "reset": "fire.result.schema.json",
    "status": "status.result.schema.json",
    "wait": "wait.result.schema.json",
    "history": "history.result.schema.json",
    "mark": "empty.result.schema.json",
    "beginBackgroundTask": "beginBackgroundTask.result.schema.json",
    "endBackgroundTask": "empty.result.schema.json",
    "reportMemory": "empty.result.schema.json",
    "registerBackgroundTask": "empty.result.schema.json",
    "submitBackgroundTask": "empty.result.schema.json",
    "setTaskCompleted": "empty.result.schema.json",
    "protectedData": "protectedData.result.schema.json",
    **{callback: "callback.result.schema.json" for callback in CALLBACKS},
}


def load_validators():
    schemas = {}
    for path in glob.glob(os.path.join(HERE, "schemas", "*.schema.json")):
        with open(path) as f:
            schemas[os.path.basename(path)] = json.load(f)
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    return {name: Draft202012Validator(schema, registry=registry) for name, schema in schemas.items()}


def problems(validator, instance):
    """Schema violations, ignoring those that concern a "$any" placeholder."""
    return [error for error in validator.iter_errors(instance) if concerns_more_than_placeholders(error)]


def concerns_more_than_placeholders(error):
    """False for an error about a "$any" placeholder, and for a oneOf failure (a journal entry's kinds) of which
    one branch failed only on placeholders."""
    if error.instance == "$any":
        return False
    if error.validator == "oneOf" and error.context:
        branches = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        return not any(all(not concerns_more_than_placeholders(sub) for sub in subs) for subs in branches.values())
    return True


def describe(where, errors):
    return [f"{where}: {error.json_path}: {error.message}" for error in errors]


def check_message(validators, message, state, where):
    """Problems with one message. state["methods"] maps request ids to methods; state["pending"] holds the params
    problems of sent requests until their response shows whether the broker was meant to reject them (-32602)."""
    if not isinstance(message, dict):
        return []  # a deliberately invalid batch element: the transcript expects the broker's -32600
    if "method" in message:
        kind = "request.schema.json" if "id" in message else "notification.schema.json"
        found = describe(where, problems(validators[kind], message))
        table = PARAMS if "id" in message else {**PARAMS, **NOTIFICATION_PARAMS}
        schema = table.get(message["method"])
        params = describe(where + " params", problems(validators[schema], message.get("params"))) if schema else []
        if "id" in message:
            key = json.dumps(message["id"])
            state["methods"][key] = message["method"]
            state["pending"][key] = params
        else:
            found += params
        return found
    found = describe(where, problems(validators["response.schema.json"], message))
    key = json.dumps(message.get("id"))
    error = message.get("error")
    rejected_params = isinstance(error, dict) and error.get("code") == -32602
    params = state["pending"].pop(key, [])
    if not rejected_params:
        found += params
    schema = RESULTS.get(state["methods"].get(key))
    if schema and "result" in message and message["result"] != "$any":
        found += describe(where + " result", problems(validators[schema], message["result"]))
    return found


def main(paths):
    validators = load_validators()
    paths = paths or sorted(glob.glob(os.path.join(HERE, "examples", "*.jsonl")))
    failures, checked = [], 0
    for path in paths:
        state = {"methods": {}, "pending": {}}
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                entry = json.loads(line)
                for key in ("send", "expect"):
                    value = entry.get(key)
                    if value is None:
                        continue
                    for message in value if isinstance(value, list) else [value]:
                        where = f"{os.path.basename(path)}:{number} {key}"
                        failures += check_message(validators, message, state, where)
                        checked += 1
        for problems_left in state["pending"].values():
            failures += problems_left
    for failure in failures:
        print(failure)
    print(f"{checked} messages checked in {len(paths)} files, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
