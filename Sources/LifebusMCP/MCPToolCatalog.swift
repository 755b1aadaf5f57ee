import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusTimeline

/// The tools `lifebus mcp` offers, as `tools/list` returns them: a name, a title, a description an agent can act
/// on, and a JSON Schema for the arguments. Stateless; the schemas list every choice the broker accepts, so an
/// agent never has to guess a spelling.
enum MCPToolCatalog {
    /// The tools, in the order `tools/list` gives them; the raw value is the tool's name.
    enum Name: String, CaseIterable {
        case fire
        case launch
        case scene
        case status
        case protectedData = "protected_data"
        case waitForState = "wait_for_state"
        case history
        case advanceClock = "advance_clock"
        case timeline
        case install
        case uninstall
        case reset
        case expect
        case coverage
        case runScenario = "run_scenario"
    }

    static var tools: [JSONValue] {
        Name.allCases.map(definition)
    }

    static func definition(_ name: Name) -> JSONValue {
        let tool = details(name)
        return [
            "name": .string(name.rawValue),
            "title": .string(tool.title),
            "description": .string(tool.description),
            "inputSchema": [
                "type": "object",
                "properties": .object(tool.properties),
                "required": .array(tool.required.map(JSONValue.string)),
                "additionalProperties": false,
            ],
            "annotations": [
                "title": .string(tool.title), "readOnlyHint": .bool(tool.readOnly), "openWorldHint": false,
            ],
        ]
    }

    /// What `tools/list` says about one tool.
    struct Details {
        let title: String
        let description: String
        let properties: JSONObject
        let required: [String]
        let readOnly: Bool

        init(_ title: String, _ description: String, _ properties: JSONObject, _ required: [String], _ readOnly: Bool) {
            self.title = title
            self.description = description
            self.properties = properties
            self.required = required
            self.readOnly = readOnly
        }
    }

    /// `call (ring, answer, decline, end); …; terminate (needs app; byUser true: the user killed it)`: what each
    /// event takes, from its declaration.
    private static let eventsAndTheirMembers = FireEvent.allCases.map { event in
        let declaration = event.declaration
        var takes: [String] = []
        if !declaration.actions.isEmpty { takes.append(declaration.actions.map(\.rawValue).joined(separator: ", ")) }
        if !declaration.levels.isEmpty {
            takes.append("level " + declaration.levels.map(\.rawValue).joined(separator: " or "))
        }
        if declaration.target == .app { takes.append("needs app") }
        if declaration.takesByUser { takes.append("byUser true: the user killed it") }
        takes += members(of: event)
        return takes.isEmpty ? event.rawValue : "\(event.rawValue) (\(takes.joined(separator: "; ")))"
    }.joined(separator: "; ")

    /// `call: ring|answer|decline|end; sms: …`: the actions each event takes, from its declaration.
    private static let actionsByEvent = FireEvent.allCases.filter { !$0.declaration.actions.isEmpty }
        .map { "\($0.rawValue): " + $0.declaration.actions.map(\.rawValue).joined(separator: "|") }
        .joined(separator: "; ")

    static let appProperty: JSONValue = [
        "type": "string", "pattern": "^[A-Za-z0-9._-]{1,255}$",
        "description": "An app id, reverse-DNS style (com.example.Notes).",
    ]
    /// `launch`'s option: the URL the app is opened with (launch options or connection options, by kind of app).
    static let launchURLProperty: JSONValue = [
        "type": "string", "minLength": 1,
        "description": .string(
            "launch only: a URL the app is opened with (an app-delegate app's launchOptions.url and openURL; "
                + "a scene app's willConnectTo urlContexts, or openURLContexts when running)."),
    ]
    /// `launch`'s connection option: a tapped notification's payload.
    static let launchPushProperty: JSONValue = [
        "type": "object",
        "description":
            .string(
                "launch only: a tapped notification's payload (an app-delegate app's "
                    + "launchOptions.remoteNotification; a scene app's willConnectTo notificationResponse; "
                    + "didReceiveNotificationResponse when running)."),
    ]
    static let stateProperty: JSONValue = [
        "type": "string", "enum": .array(LifecycleState.allCases.map { .string($0.rawValue) }),
        "description": "A lifecycle state.",
    ]

    private static func details(_ name: Name) -> Details {
        switch name {
        case .fire:
            return Details(
                "Fire an interruption",
                """
                Inject an interruption or system event into the simulated iOS device and, by default, wait until \
                every app it affects has been driven through its lifecycle callbacks. Events and their actions \
                (the first is the default): \(eventsAndTheirMembers). A silent push is content-available: \
                didReceiveRemoteNotification, launching the app into the background when it is not running; an \
                alert push is a visible notification (tap it with launch's push); an app in the foreground (ios13+) \
                is asked how to show it (willPresentNotification; its options are in history as push presented). A \
                bgtask runs a task the app submitted (launching it into the background when it is not running); its \
                outcome (task records: launched, expiring, completed, expired — the app killed \
                backgroundTaskExpired) is in history. An app without scenes launched or resumed from suspended for a \
                push or a task gets didEnterBackground first. \
                Returns the transitions it caused with their latency, budget and outcome (ok, late, watchdog, crashed, \
                disconnected: the broker dropped the app for not reading its output, killed, jetsam). Fails with \
                the broker's error name, e.g. lifebus.EventRejected (reason appNotRunning…); a launch whose app's \
                process does not connect within its launch budget fails lifebus.TimedOut (reason launchTimedOut).
                """,
                [
                    "event": [
                        "type": "string",
                        "enum": .array(FireParams.FireEvent.allCases.map { .string($0.rawValue) }),
                        "description": "The event to inject.",
                    ],
                    "action": [
                        "type": "string", "enum": .array(FireParams.Action.allCases.map { .string($0.rawValue) }),
                        "description": .string(Self.actionsByEvent + ". Omit for other events."),
                    ],
                    "app": appProperty,
                    "level": [
                        "type": "string", "enum": .array(MemoryWarningLevel.allCases.map { .string($0.rawValue) }),
                        "description": "memory-warning only: warning (default) or critical.",
                    ],
                    "byUser": ["type": "boolean", "description": "terminate only: the user killed the app."],
                    "url": launchURLProperty,
                    "push": launchPushProperty,
                    "identifier": taskIdentifierProperty,
                    "payload": pushPayloadProperty,
                    "scene": sceneNumberProperty,
                    "session": ["type": "integer", "minimum": 1, "description": "scene reconnect only: the session."],
                    "activity": ["type": "object", "description": "scene open only: the window's user activity."],
                    "wait": [
                        "type": "boolean", "default": true,
                        "description": "Answer once every transition the event caused has completed (default).",
                    ],
                ],
                ["event"], false
            )
        case .launch:
            return Details(
                "Launch or bring an app to the front",
                """
                Tap an app's icon: fire `launch` for the app. A running app comes to the front; one that is not \
                running is launched when its process connects. Waits for the transitions unless wait is false. \
                No process connecting within the launch budget is a timeout: lifebus.TimedOut (reason launchTimedOut). \
                A cold start's url or push payload reaches an app-delegate app in didFinishLaunching's launchOptions \
                (then openURL for a url) and a scene app in willConnectTo's connection options, and from ios13 a \
                push payload then reaches didReceiveNotificationResponse too; a running app gets openURL (a scene \
                app's focused scene: openURLContexts) or didReceiveNotificationResponse, as lifebus fire launch \
                --url/--push does.
                """,
                [
                    "app": appProperty, "url": launchURLProperty, "push": launchPushProperty,
                    "wait": ["type": "boolean", "default": true],
                ],
                ["app"], false
            )
        case .scene: return sceneDetails
        case .protectedData: return protectedDataDetails
        case .status:
            return Details(
                "Device and app status",
                """
                The device (profile, locked, call, alert, foreground app) and every app the broker knows with its \
                state, pid (null when it has no live process), since when and its pending and running background \
                tasks (tasks: identifier, kind, state; protectedDataAvailable false while the device's protected \
                data is unavailable, as protected_data says); with app, just that one (lifebus.AppNotFound if \
                unknown). Also gives the broker's socket, which apps connect to (LIFEBUS_SOCKET).
                """,
                ["app": appProperty],
                [], true
            )
        case .waitForState:
            return Details(
                "Wait for an app to reach a state",
                """
                Wait until the app is in the state (at once if it already is), up to timeoutMs (default 10000). \
                On timeout the error lifebus.TimedOut carries the app's current state and last transitions. \
                With scene (a number, from status), wait until that scene is in a scene state (unattached, \
                foregroundInactive, foregroundActive, background; a scene not connected, not yet or any more, is \
                unattached, so a scene still to come is waited for in another state). \
                Sends progress notifications when given a progressToken, and stops when cancelled.
                """,
                [
                    "app": appProperty, "scene": sceneNumberProperty,
                    "state": [
                        "description": "A lifecycle state, or with scene a scene state.",
                        "anyOf": [stateProperty, sceneStateProperty],
                    ],
                    "timeoutMs": ["type": "number", "minimum": 0, "default": 10000],
                ],
                ["app", "state"], true
            )
        case .history:
            return Details(
                "Journaled transitions and marks",
                """
                The journal, oldest first: each transition (app, callback, from, to, sentMs, answeredMs, \
                handlerMs, budgetMs, outcome, cause), each mark an app made (state-saved…), each process record \
                (started, killed with its reason…), each background task's step (type task: identifier, kind, \
                event submitted, launched, expiring, completed with success, expired, cancelled, deferred), each \
                push's (type push: delivered, deferred, discarded, answered or late with its result newData, \
                noData, failed) and each change of protected data (type protectedData: available). Times are ms \
                since the broker started. limit keeps the newest entries (default 100).
                """,
                ["app": appProperty, "limit": ["type": "integer", "minimum": 1, "default": 100]],
                [], true
            )
        case .advanceClock:
            return Details(
                "Advance the device clock",
                """
                Move the broker's virtual clock forward by a duration (250ms, 5s, 2m), firing every budget and \
                timer that falls due. Only a broker with the manual clock can do this (`lifebus mcp \
                --start-broker --clock manual`, or `lifebusd --clock manual`); one on the real clock answers with \
                an error saying so — then use wait_for_state and real time instead.
                """,
                ["by": ["type": "string", "description": "A duration: a number and ns, us, ms, s, m or h."]],
                ["by"], false
            )
        case .timeline:
            return Details(
                "Timeline of the run",
                """
                The run as a timeline: text (default; one line per state, callback with latency against budget, \
                mark and ending, per app), svg (a picture: a lane per app, states as coloured bars, events as \
                lines, watchdog/jetsam/crash/disconnected endings in red) or chrome (trace-event JSON for \
                Perfetto). With path, writes the file there and returns its path. width: the svg picture's \
                width in pixels (default \(Int(SVGTimeline.defaultWidth))).
                """,
                [
                    "format": ["type": "string", "enum": ["text", "svg", "chrome"], "default": "text"],
                    "apps": ["type": "array", "items": appProperty, "description": "Only these apps."],
                    "path": ["type": "string", "description": "Write the timeline to this file."],
                    "width": svgWidthProperty,
                ],
                [], true
            )
        case .install: return installDetails
        case .uninstall: return uninstallDetails
        case .reset: return resetDetails
        case .expect: return expectDetails
        case .coverage: return coverageDetails
        case .runScenario: return runScenarioDetails
        }
    }
}
