import LifebusExpectation
import LifebusJSON
import LifebusLifecycle

/// The tools that let an agent run a whole test, as `tools/list` describes them: install and uninstall apps, reset
/// the device, assert (`expect`, the checks of `lifebus expect`), read coverage, run a scenario file.
extension MCPToolCatalog {
    private static func namesOf(_ values: [String]) -> JSONValue {
        .array(values.map(JSONValue.string))
    }

    static let installDetails = Details(
        "Install an app from its manifest",
        """
        Install an app from its manifest file (Protocol/schemas/manifest.schema.json; a path relative to \
        the server's working folder): the broker starts its process from then on, on launch. Returns the \
        installed app (id, executable). Its ${VAR}s and a bare executable take the server's environment \
        (only the variables it names, and PATH, are sent). A bad manifest fails lifebus.InvalidManifest naming \
        the member.
        """,
        ["path": ["type": "string", "description": "The manifest file."]],
        ["path"], false
    )
    static let uninstallDetails = Details(
        "Uninstall an app",
        "Forget an installed app: the broker no longer starts it on launch (a running process keeps running).",
        ["app": appProperty], ["app"], false
    )
    static let resetDetails = Details(
        "Reset the device",
        """
        Back to a fresh device: no call, no alert, unlocked; apps without a process are forgotten; the \
        front app goes where a fresh device puts it. Running apps keep running (terminate them first for a \
        clean slate). Installed apps stay installed.
        """,
        [:], [], false
    )
    static let expectDetails = Details(
        "Assert what an app went through",
        """
        The checks of `lifebus expect`: on the app's journal entries in scope (by default since the last \
        event fired that caused a transition; since: all, or {"mark": NAME}, or {"seq": N}) and its state \
        now. Give any of: callbacks (exactly, in order; [] for none), state (one, or any of several), \
        outcome (every transition in scope ended so), noOutcome, mark (a mark with this name in scope) and \
        markData (the mark's data has each key with that value: a string's text, else its JSON). Returns \
        passed and each check with expected beside recorded; a check that fails is a result with passed \
        false (not a tool error), whose text says what differed. With scene (a number, from status), only \
        that scene's transitions count (the app's marks still do) and state is the scene's state now \
        (unattached, foregroundInactive, foregroundActive, background; unattached when not connected). The \
        background life: task with taskEvent (and taskSuccess) checks that task's last step in scope (e.g. \
        expired: the app did not complete it and was killed backgroundTaskExpired), pushResult the result of \
        the app's last answered push; the task and push records in scope are those since the event, including \
        what advance_clock made of it (a task's expiry, a late answer).
        """,
        JSONObject(([
            "app": appProperty,
            "scene": sceneNumberProperty,
            "callbacks": [
                "type": "array", "description": "The callbacks in scope, in order, exactly.",
                "items": ["type": "string", "enum": namesOf(LifecycleCallback.allCases.map(\.rawValue))],
            ],
            "state": [
                "description": "The state now: one, or an array of any of several (scene states with scene).",
                "anyOf": [
                    stateProperty, ["type": "array", "items": stateProperty, "minItems": 1],
                    sceneStateProperty, ["type": "array", "items": sceneStateProperty, "minItems": 1],
                ],
            ],
            "outcome": ["type": "string", "enum": namesOf(Verdict.names)],
            "noOutcome": ["type": "array", "items": ["type": "string", "enum": namesOf(Verdict.names)]],
            "mark": ["type": "string", "description": "A mark with this name in scope."],
            "markData": [
                "type": "object", "description": "Keys the mark's data must have, with their values.",
            ],
            "since": [
                "description": "lastEvent (default), all, {\"mark\": NAME} or {\"seq\": N}.",
                "anyOf": [
                    ["type": "string", "enum": ["lastEvent", "all"]],
                    [
                        "type": "object", "properties": ["mark": ["type": "string"]], "required": ["mark"],
                        "additionalProperties": false,
                    ],
                    [
                        "type": "object", "properties": ["seq": ["type": "integer"]], "required": ["seq"],
                        "additionalProperties": false,
                    ],
                ],
            ],
        ] as JSONObject).map { ($0.key, $0.value) } + expectBackgroundProperties.map { ($0.key, $0.value) }),
        ["app"], true
    )
    static let coverageDetails = Details(
        "Coverage of the lifecycle table",
        """
        Which rows of the lifecycle table (Protocol/lifecycle.md) the broker's journal exercised, per app \
        and profile, and which were never reached, with their situations (`lifebus coverage`).
        """,
        ["app": appProperty], [], true
    )
    static let runScenarioDetails = Details(
        "Run a scenario",
        """
        Run a scenario (Protocol/scenarios.md) on this broker, reset first, under its profile: from a file \
        (path) or inline YAML (yaml). Returns passed and each step with its status; a failed step's checks \
        say expected beside recorded. A failed scenario is a result with passed false, not a tool error.
        """,
        [
            "path": ["type": "string", "description": "A scenario file (.yaml, .yml, .json)."],
            "yaml": ["type": "string", "description": "A scenario, as YAML text."],
            "timeoutMs": ["type": "number", "minimum": 0, "default": 120000],
        ],
        [], false
    )
}
