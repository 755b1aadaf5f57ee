import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusTimeline

/// The background life in `tools/list` (issue 28): the members `fire` takes beyond an event's actions and levels,
/// the `protected_data` tool, `expect`'s task and push checks, and the `timeline` picture's width.
extension MCPToolCatalog {
    /// The members `fire` takes for `event` besides `app`, `action`, `level` and `byUser`, as its description lists
    /// them (`bgtask (run, cancel; needs app; identifier required: …)`). One case per event: a new event says here
    /// what it takes.
    static func members(of event: FireEvent) -> [String] {
        switch event {
        case .launch: ["url or push: its connection options"]
        case .scene: ["scene, session, url, activity as the scene tool takes them"]
        case .bgtask: ["identifier required: the submitted task's"]
        case .push: ["payload: the notification's JSON, default {}"]
        case .call, .sms, .calendar, .sleep, .wake, .home, .memoryWarning, .terminate, .activate, .power, .network:
            []
        }
    }

    static let taskIdentifierProperty: JSONValue = [
        "type": "string", "pattern": "^[A-Za-z0-9._-]{1,255}$",
        "description": .string(
            "bgtask only (required there): the identifier of a task the app registered and submitted "
                + "(BGTaskSchedulerPermittedIdentifiers, e.g. com.example.Feed.refresh)."),
    ]
    static let pushPayloadProperty: JSONValue = [
        "type": "object",
        "description": .string(
            "push only: the notification's JSON (default {}), handed to didReceiveRemoteNotification (silent, "
                + "content-available) or shown (alert)."),
    ]
    static let svgWidthProperty: JSONValue = [
        "type": "integer", "minimum": .integer(Int64(SVGTimeline.minimumWidth)),
        "maximum": .integer(Int64(SVGTimeline.maximumWidth)),
        "description": "svg only: the picture's width in pixels.",
    ]

    static let protectedDataDetails = Details(
        "Whether protected data is available",
        """
        Whether the device's protected data (files of class complete) is available now: false from the \
        profile's lock delay (10 s under ios13 and later) after fire sleep until fire wake; always true under a \
        profile without data protection (ios3, ios4, ios7). While it is unavailable an app's reads and writes of \
        such files fail with EPERM. The history tool's protectedData records say when it changed.
        """,
        [:], [], true
    )

    /// `expect`'s background checks (`BackgroundExpectation`).
    static let expectBackgroundProperties: JSONObject = [
        "task": [
            "type": "string", "pattern": "^[A-Za-z0-9._-]{1,255}$",
            "description": "A task identifier: its steps in scope are checked against taskEvent (and taskSuccess).",
        ],
        "taskEvent": [
            "type": "string", "enum": .array(BackgroundTaskRecord.Event.allCases.map { .string($0.rawValue) }),
            "description": .string(
                "With task: the task's last step in scope (completed: setTaskCompleted; expired: neither completed "
                    + "nor expired in time, the app killed backgroundTaskExpired)."),
        ],
        "taskSuccess": ["type": "boolean", "description": "With taskEvent completed: the success it was given."],
        "pushResult": [
            "type": "string", "enum": .array(BackgroundFetchResult.allCases.map { .string($0.rawValue) }),
            "description": "The app's last push answered in scope (answered or late) gave this fetch result.",
        ],
    ]
}
