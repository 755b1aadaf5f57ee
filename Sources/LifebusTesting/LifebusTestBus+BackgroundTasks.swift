public import Lifebus
import LifebusLifecycle
import LifebusProtocol

/// Background time for an in-process app, asked for by the test as the app's own code would ask
/// (`Application.beginBackgroundTask`), with the timeline refreshed and a refusal typed.
extension LifebusTestBus {
    /// Has `app` begin a background task (UIKit's `beginBackgroundTask`) and returns it; `expirationHandler` runs
    /// when the device says the time is up (`advance(by:)` past it). A refusal throws `BackgroundTaskRefused`
    /// (`appSuspended`, `backgroundTasksUnavailable` under ios3, `backgroundTimeExpired`). In-process apps that are
    /// running only: an app that is not can send the broker nothing.
    ///
    /// - Parameters:
    ///   - app: An app launched with its delegate, and running.
    ///   - name: A name for the task, shown in the journal; none by default.
    ///   - expirationHandler: Runs on the main actor when the task's time is up; none by default.
    /// - Returns: The task's identifier, for ``endBackgroundTask(_:in:)``.
    /// - Throws: ``BackgroundTaskRefused`` when the device refuses the task, ``LifebusTestBusError`` for an app that
    ///   does not run in the test's process or is not running.
    public func beginBackgroundTask(
        in app: LifebusTestApp, name: String? = nil, expirationHandler: (@MainActor () -> Void)? = nil
    ) async throws -> BackgroundTaskIdentifier {
        let application = try runningApplication(app)
        let task: BackgroundTaskIdentifier
        do {
            task = try await application.beginBackgroundTask(name: name, expirationHandler: expirationHandler)
        } catch {
            throw try await refusal(error, of: app)
        }
        try await refresh()
        return task
    }

    /// Has `app` end `task` (UIKit's `endBackgroundTask`): with no task left, an app in the background is
    /// suspended. A refusal (`unknownTask`, …) throws `BackgroundTaskRefused`.
    ///
    /// - Parameters:
    ///   - task: What ``beginBackgroundTask(in:name:expirationHandler:)`` returned.
    ///   - app: The app that began it.
    /// - Throws: ``BackgroundTaskRefused`` when the device refuses (`unknownTask`, …), ``LifebusTestBusError`` for an
    ///   app that does not run in the test's process or is not running.
    public func endBackgroundTask(_ task: BackgroundTaskIdentifier, in app: LifebusTestApp) async throws {
        let application = try runningApplication(app)
        do {
            try await application.endBackgroundTask(task)
        } catch {
            throw try await refusal(error, of: app)
        }
        try await refresh()
    }

    /// The SDK application of `app`, which must run in this process and be running.
    private func runningApplication(_ app: LifebusTestApp) throws -> Application {
        guard let application = app.application else {
            throw LifebusTestBusError("\(app.id) runs in a process of its own: its code asks for background time")
        }
        guard apps[app.id] != nil, application.state != .notRunning else {
            throw LifebusTestBusError("\(app.id) is not running: it can ask the broker for nothing")
        }
        return application
    }

    /// `error` as the test reads it: a device refusal as `BackgroundTaskRefused` (after the timeline took in what
    /// happened), anything else as it is.
    private func refusal(_ error: RPCError, of app: LifebusTestApp) async throws -> any Error {
        guard error.code == LifebusErrorCode.eventRejected.code,
            let reason = error.data?["reason"]?.stringValue.flatMap(RejectionReason.init(rawValue:))
        else { return error }
        try await refresh()
        return BackgroundTaskRefused(app: app.id, reason: reason)
    }
}
