public import LifebusLifecycle
public import LifebusProtocol

/// The app's `BGTaskScheduler`: registers launch handlers for its task identifiers (before `didFinishLaunching`
/// returns, as iOS requires), submits requests, and runs a handler when the broker says its task is due
/// (`performBackgroundTask`), handing it the `BackgroundTask` to complete.
///
/// Owned by its `Application` (`Application.taskScheduler`); bound to the main actor. Invariants: at most one launch
/// handler per identifier; `running` holds the tasks whose handler was called and that the app has not completed.
@MainActor
public final class BackgroundTaskScheduler {
    /// A request to submit: `BGAppRefreshTaskRequest`, `BGProcessingTaskRequest` or
    /// `BGContinuedProcessingTaskRequest`, by `kind` — the `submitBackgroundTask` params themselves (identifier,
    /// kind, `earliestBeginAfter` on the broker's clock, `requiresExternalPower`, `requiresNetworkConnectivity`).
    public typealias Request = SubmitBackgroundTaskParams

    private unowned let application: Application
    private var launchHandlers: [String: @MainActor (BackgroundTask) -> Void] = [:]
    /// The tasks running now, by identifier.
    private(set) var running: [String: BackgroundTask] = [:]

    init(application: Application) {
        self.application = application
    }

    /// Registers `launchHandler` for `identifier` (one of the app's `permittedTaskIdentifiers`): call it while
    /// `didFinishLaunching` runs. The broker refuses it after launch finished (`registrationClosed`), for an
    /// identifier the app may not use (`taskNotPermitted`), or under a profile without `BGTaskScheduler`
    /// (`backgroundTasksUnavailable`), each a `lifebus.EventRejected` `RPCError`.
    ///
    /// - Parameters:
    ///   - identifier: The task identifier to handle.
    ///   - launchHandler: Called on the main actor with the new ``BackgroundTask`` each time the task is due.
    /// - Throws: The broker's `RPCError`: its refusal (`registrationClosed`, `taskNotPermitted`,
    ///   `backgroundTasksUnavailable`), or `lifebus.ConnectionClosed` when the app is not connected. The handler is
    ///   kept only when the broker accepted it.
    public func register(
        identifier: String, launchHandler: @escaping @MainActor (BackgroundTask) -> Void
    ) async throws(RPCError) {
        _ = try await application.call(
            LifebusMethod.registerBackgroundTask, RegisterBackgroundTaskParams(identifier: identifier).json)
        launchHandlers[identifier] = launchHandler
    }

    /// Submits `request`: the broker runs it when it falls due (`earliestBeginAfter` on its clock, or
    /// `lifebus fire bgtask`), launching the app into the background if it is not running. A new request replaces a
    /// pending one of the same identifier. An app may have 1 `appRefresh` and 10 `processing` requests pending (not
    /// yet launched) at once, as on iOS; one more is refused `tooManyPendingTaskRequests`.
    ///
    /// - Parameter request: The task to schedule, and when and under which conditions it may run.
    /// - Throws: The broker's `RPCError` when it refuses the request — its `rejectionReason` says why
    ///   (`tooManyPendingTaskRequests`, `taskNotPermitted`, `taskRequiresForeground`, `backgroundTasksUnavailable`,
    ///   …) — or `lifebus.ConnectionClosed` when the app is not connected.
    public func submit(_ request: Request) async throws(RPCError) {
        _ = try await application.call(LifebusMethod.submitBackgroundTask, request.json)
    }

    /// `performBackgroundTask`: calls the identifier's launch handler with a new task (nothing when none is
    /// registered: the task then runs until it expires, as on iOS).
    func perform(identifier: String, kind: BackgroundTaskKind) {
        let task = BackgroundTask(identifier: identifier, kind: kind, scheduler: self)
        running[identifier] = task
        launchHandlers[identifier]?(task)
    }

    /// `backgroundTaskWillExpire`: runs the task's expiration handler.
    func expire(identifier: String) {
        running[identifier]?.expirationHandler?()
    }

    /// The app completed `task`: tells the broker.
    func complete(_ task: BackgroundTask, success: Bool) async throws(RPCError) {
        if running[task.identifier] === task { running[task.identifier] = nil }
        _ = try await application.call(
            LifebusMethod.setTaskCompleted, SetTaskCompletedParams(identifier: task.identifier, success: success).json)
    }

    /// The app's process ended as far as the bus knows: no task runs on.
    func ended() {
        running.removeAll()
    }
}

/// A running `BGTask`, handed to its launch handler: the app does its work, then calls `setTaskCompleted(success:)`;
/// when the system needs the time back it calls `expirationHandler` first (the app should stop and complete). A task
/// completed neither way before its budget gets the app killed (`backgroundTaskExpired`).
///
/// Owned by the scheduler while it runs; bound to the main actor. Invariant: completed at most once (later calls do
/// nothing).
@MainActor
public final class BackgroundTask {
    /// The task's identifier, as registered and submitted.
    public let identifier: String
    /// The kind of task: app refresh, processing or continued processing.
    public let kind: BackgroundTaskKind
    /// Runs when the task's time is up (`backgroundTaskWillExpire`); with none set, the task is simply ended.
    public var expirationHandler: (@MainActor () -> Void)?
    /// Whether `setTaskCompleted(success:)` was called.
    public private(set) var isCompleted = false
    private weak var scheduler: BackgroundTaskScheduler?

    init(identifier: String, kind: BackgroundTaskKind, scheduler: BackgroundTaskScheduler) {
        self.identifier = identifier
        self.kind = kind
        self.scheduler = scheduler
    }

    /// The work is done (`BGTask.setTaskCompleted(success:)`): the broker journals it (`completed`, `success`).
    /// Only the first call counts; later ones do nothing and do not throw.
    ///
    /// - Parameter success: Whether the task's work succeeded.
    /// - Throws: The broker's `RPCError`, or `lifebus.ConnectionClosed` when the app is not connected. The task
    ///   counts as completed even then.
    public func setTaskCompleted(success: Bool) async throws(RPCError) {
        guard !isCompleted else { return }
        isCompleted = true
        try await scheduler?.complete(self, success: success)
    }
}
