/// The events a controller fires (`fire`'s `event`, `lifebus fire EVENT`): the one list of them. The raw value is
/// the wire spelling, the CLI's subcommand and the first word of the event's label. The order is the fuzzer's
/// (`StepGenerator` lists candidates in it, so a seed names the same run in every version), the CLI's and the
/// schema's.
///
/// Everything the tables need to know of an event is its `declaration` (`FireEvent+Declaration.swift`); what the
/// device does with it is `ControllerEvent`'s (`init(_:action:app:level:byUser:)` maps one to the other). Adding
/// an event: the recipe in `ARCHITECTURE.md` ("Adding an event"); `EventTablesTests` drives every form of every
/// event through every table.
public enum FireEvent: String, Sendable, Hashable, CaseIterable {
    case call
    case sms
    case calendar
    case sleep
    case wake
    case home
    case memoryWarning = "memory-warning"
    case terminate
    case activate
    case launch
    /// A scene app's windows: open, close, reclaim, reconnect, focus (`SceneEvent`).
    case scene
    /// A `BGTaskScheduler` task: run a submitted request now, or cancel a continued-processing one.
    case bgtask
    /// A remote notification: silent (`content-available`) or visible (`alert`).
    case push
    /// The device is plugged in or on its battery (`BGProcessingTaskRequest.requiresExternalPower`).
    case power
    /// The device goes online or offline (`BGProcessingTaskRequest.requiresNetworkConnectivity`).
    case network

    /// The event's place in `allCases` (where its declaration is kept, and its field in a packed `fire`): a switch
    /// the compiler checks is whole, not a search. `init(position:)` is its inverse.
    public var position: Int {
        switch self {
        case .call: 0
        case .sms: 1
        case .calendar: 2
        case .sleep: 3
        case .wake: 4
        case .home: 5
        case .memoryWarning: 6
        case .terminate: 7
        case .activate: 8
        case .launch: 9
        case .scene: 10
        case .bgtask: 11
        case .push: 12
        case .power: 13
        case .network: 14
        }
    }

    /// The event at `position` in `allCases`; `position` must be one of theirs.
    public init(position: Int) {
        self = Self.byPosition[position]
    }

    /// `allCases`, made once (the synthesized `allCases` makes a new array at each call).
    private static let byPosition = allCases
}

/// What happens to an incoming call or alert (`fire`'s `action`, `lifebus fire EVENT --ACTION`), or to a scene app's
/// windows (`lifebus fire scene ACTION`). The raw value is the wire spelling and the CLI's flag or word; which events
/// take which: `FireEvent.Declaration.actions`.
public enum FireAction: String, Sendable, Hashable, CaseIterable {
    case ring
    case answer
    case decline
    case end
    case show
    case banner
    case reply
    case dismiss
    case view
    case open
    case close
    case reclaim
    case reconnect
    case focus
    case run
    case cancel
    case silent
    case alert
    case external
    case battery
    case online
    case offline
    case tap

    /// The action's place in `allCases` (its field in a packed `fire`): a switch the compiler checks is whole, not a
    /// search. `init(position:)` is its inverse.
    public var position: Int {
        switch self {
        case .ring: 0
        case .answer: 1
        case .decline: 2
        case .end: 3
        case .show: 4
        case .banner: 5
        case .reply: 6
        case .dismiss: 7
        case .view: 8
        case .open: 9
        case .close: 10
        case .reclaim: 11
        case .reconnect: 12
        case .focus: 13
        case .run: 14
        case .cancel: 15
        case .silent: 16
        case .alert: 17
        case .external: 18
        case .battery: 19
        case .online: 20
        case .offline: 21
        case .tap: 22
        }
    }

    /// The action at `position` in `allCases`; `position` must be one of theirs.
    public init(position: Int) {
        self = Self.byPosition[position]
    }

    /// `allCases`, made once.
    private static let byPosition = allCases

    /// What the action does, as `lifebus fire EVENT --help` says it.
    public var summary: String {
        switch self {
        case .ring: "The call starts ringing (the default)."
        case .answer: "Answer the ringing call."
        case .decline: "Decline the ringing call."
        case .end: "End the call in progress (while ringing: the caller hangs up)."
        case .show: "The alert appears on screen (the default)."
        case .banner: "Show the SMS as a banner, which does not interrupt the app."
        case .reply: "Reply to the alert (the Messages app comes to the front)."
        case .dismiss: "Dismiss the alert."
        case .view: "View the event (the Calendar app comes to the front)."
        case .open: "Open a new window of the app: a new scene of a new session."
        case .close: "Close a scene from the app switcher (--app: every scene of the app)."
        case .reclaim: "The system disconnects a background scene to reclaim memory; its session survives."
        case .reconnect: "The user reopens a session: a new scene for it, its restoration payload handed back."
        case .focus: "Make one of the app's visible scenes the active one (iPad)."
        case .run: "Run the submitted task now, launching the app into the background if needed (the default)."
        case .cancel: "The user cancels the continued-processing task: its expiration handler runs."
        case .silent: "A silent push (content-available), through didReceiveRemoteNotification (the default)."
        case .alert:
            "A visible notification: nothing reaches the app until it is tapped (launch --push), but an app in the "
                + "foreground is asked how to present it (willPresentNotification, ios13+)."
        case .external: "The device is plugged in: processing tasks that require external power may run."
        case .battery: "The device runs on its battery: processing tasks that require external power wait or expire."
        case .online: "The device reaches the network: processing tasks that require it may run."
        case .offline: "The device loses the network: processing tasks that require it wait or expire."
        case .tap: "A visible notification the user taps (with or without --alert): the app comes to the front, "
            + "launched if needed with the payload in the scene's notificationResponse (launch --push)."
        }
    }

    /// The call's progress this action means (`nil` for alert actions).
    public var callAction: CallAction? {
        switch self {
        case .ring: .ring
        case .answer: .answer
        case .decline: .decline
        case .end: .end
        case .show, .banner, .reply, .dismiss, .view, .open, .close, .reclaim, .reconnect, .focus, .run, .cancel,
            .silent, .alert, .external, .battery, .online, .offline, .tap:
            nil
        }
    }

    /// The alert's progress this action means (`nil` for call actions): `reply` and `view` both open the app the
    /// alert belongs to.
    public var alertAction: AlertAction? {
        switch self {
        case .show: .show
        case .banner: .banner
        case .reply, .view: .open
        case .dismiss: .dismiss
        case .ring, .answer, .decline, .end, .open, .close, .reclaim, .reconnect, .focus, .run, .cancel,
            .silent, .alert, .external, .battery, .online, .offline, .tap:
            nil
        }
    }

    /// The background-task action this action means (`nil` for the others).
    public var backgroundTaskAction: BackgroundTaskAction? {
        switch self {
        case .run: .run
        case .cancel: .cancel
        case .ring, .answer, .decline, .end, .show, .banner, .reply, .dismiss, .view, .open, .close, .reclaim,
            .reconnect, .focus, .silent, .alert, .external, .battery, .online, .offline, .tap:
            nil
        }
    }

    /// The power source this action means (`nil` for the others).
    public var powerSource: PowerSource? {
        PowerSource(rawValue: rawValue)
    }

    /// The network state this action means (`nil` for the others).
    public var networkState: NetworkState? {
        NetworkState(rawValue: rawValue)
    }
}
