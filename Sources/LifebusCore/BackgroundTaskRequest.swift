public import LifebusLifecycle

/// A `BGTaskScheduler` request as an app submits it (`BGTaskRequest` and the subclasses' properties the device
/// honours). A plain value.
public struct BackgroundTaskRequest: Sendable, Hashable {
    /// The registered identifier (one of the app's `permittedTaskIdentifiers`).
    public var identifier: String
    public var kind: BackgroundTaskKind
    /// `earliestBeginDate` on the device's clock: the task is not due before it; `nil`: it runs only when the
    /// controller runs it (`fire bgtask`; a continued-processing task starts at once).
    public var earliestBegin: Instant?
    /// `BGProcessingTaskRequest.requiresExternalPower`: a due task waits while the device is on its battery.
    public var requiresExternalPower: Bool
    /// `BGProcessingTaskRequest.requiresNetworkConnectivity`: a due task waits while the device is offline.
    public var requiresNetworkConnectivity: Bool

    public init(
        identifier: String, kind: BackgroundTaskKind, earliestBegin: Instant? = nil,
        requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false
    ) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBegin = earliestBegin
        self.requiresExternalPower = requiresExternalPower
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
    }
}

/// One step in the life of a `BGTask`, for the journal (`{"type":"task",…}`).
public struct TaskRecord: Sendable, Hashable {
    /// What happened to the task. The raw value is the wire spelling.
    public enum Event: String, Sendable, Hashable, CaseIterable {
        /// The request was submitted (a pending task; a new submission replaces the pending one).
        case submitted
        /// The task started: its launch handler was called (`performBackgroundTask`).
        case launched
        /// Its expiration handler was called (`backgroundTaskWillExpire`).
        case expiring
        /// The app called `setTaskCompleted(success:)`.
        case completed
        /// It was neither completed nor expired in time: the app is killed (`backgroundTaskExpired`).
        case expired
        /// The system dropped it without telling the app: its app was closed in the switcher, ended, or it was
        /// pending when the device was reset.
        case cancelled
        /// It came due (its earliest begin date, or the controller's `bgtask`) for an app the user force-quit and
        /// has not launched since, not running, and its kind does not launch such an app
        /// (`DeviceConfiguration.taskKindsAfterForceQuit`): the app is not launched, the task stays pending (B64).
        case deferred
    }

    public var app: AppID
    public var identifier: String
    public var kind: BackgroundTaskKind
    public var event: Event
    /// `completed`'s `success`; `nil` for the other events.
    public var success: Bool?
    public var at: Instant

    public init(
        app: AppID, identifier: String, kind: BackgroundTaskKind, event: Event, success: Bool? = nil, at: Instant
    ) {
        self.app = app
        self.identifier = identifier
        self.kind = kind
        self.event = event
        self.success = success
        self.at = at
    }
}

/// One step in the delivery of a push, for the journal (`{"type":"push",…}`).
public struct PushRecord: Sendable, Hashable {
    /// What happened to the push. The raw value is the wire spelling.
    public enum Event: String, Sendable, Hashable, CaseIterable {
        /// Handed to the app (`didReceiveRemoteNotification` sent), or, for a visible notification, shown.
        case delivered
        /// Over the rate limit (`Profile.silentPushesPerHour`): held until the window allows or the user launches the
        /// app; only the newest is held.
        case deferred
        /// Dropped, never to reach the app: a push to a force-quit app that is not running, a held push that a newer
        /// one replaced, or a held push at the end of the app's process.
        case discarded
        /// The completion handler was called in time, with `result`.
        case answered
        /// The completion handler was called after its budget (`result` as given); the app was not killed for it
        /// only where the watchdog only observes.
        case late
        /// A visible notification the app in the foreground answered `willPresentNotification` for, with
        /// `presentation` (empty: none, not shown).
        case presented
    }

    public var app: AppID
    public var event: Event
    /// `answered`'s and `late`'s fetch result.
    public var result: BackgroundFetchResult?
    /// `presented`'s presentation options.
    public var presentation: NotificationPresentationOptions?
    public var payload: String
    public var at: Instant

    public init(
        app: AppID, event: Event, result: BackgroundFetchResult? = nil,
        presentation: NotificationPresentationOptions? = nil, payload: String, at: Instant
    ) {
        self.app = app
        self.event = event
        self.result = result
        self.presentation = presentation
        self.payload = payload
        self.at = at
    }
}

/// A `BGTask` of one app as `status` reports it.
public struct BackgroundTaskStatus: Sendable, Hashable {
    /// Where the task is. The raw value is the wire spelling.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Submitted, waiting to fall due (or for `fire bgtask`).
        case pending
        /// A `processing` task past its earliest begin date, waiting for the device's conditions (`waitingFor`).
        case waiting
        /// Its launch handler was called; not completed yet.
        case running
    }

    public var request: BackgroundTaskRequest
    public var state: State
    /// A running task's end of budget (`nil`: until the user returns, or cancels a continued-processing task).
    public var deadline: Instant?
    /// What a `waiting` task waits for (empty otherwise).
    public var waitingFor: [ProcessingRequirement]

    public init(
        request: BackgroundTaskRequest, state: State, deadline: Instant? = nil,
        waitingFor: [ProcessingRequirement] = []
    ) {
        self.request = request
        self.state = state
        self.deadline = deadline
        self.waitingFor = waitingFor
    }
}
