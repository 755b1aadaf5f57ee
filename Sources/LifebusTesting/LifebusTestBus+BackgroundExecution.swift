import LifebusLifecycle
public import LifebusProtocol

/// The background life of issue 28 on the bus: `BGTask`s run and cancelled, pushes delivered, the device locked
/// and unlocked (its protected data discarded `Profile.protectedDataLockDelay` after the lock), and the ending of a
/// task expected from the journal's task records. Each works in memory and live alike; an app's own side
/// (registering and submitting tasks, completing them, answering a push, its `ProtectedFile`s) is its code's, through
/// the SDK (`Application.taskScheduler`, `ApplicationDelegate.didReceiveRemoteNotification`).
extension LifebusTestBus {
    /// Runs the submitted `BGTask` `identifier` of `app` now (`lifebus fire bgtask APP ID`): an app that is not
    /// running is launched into the background for it (no scene, no `willEnterForeground`) — unless the user
    /// force-quit it and the task's kind does not launch such an app (`Profile.taskKindsAfterForceQuit`: an app
    /// refresh task is then `deferred` and stays pending) — a suspended one resumed, an app that does not use scenes
    /// told `didEnterBackground` then, and its launch handler called. Returns once that is done; the task then runs
    /// until the app completes it or `advance(by:)` passes its budget (`expect(_:task:outcome:)` tells which). A task
    /// that is not submitted throws `EventRejected` (`unknownTask`), as does a profile without `BGTaskScheduler`
    /// (`backgroundTasksUnavailable`).
    ///
    /// ```swift
    /// try await bus.runBackgroundTask(app, "com.example.Feed.refresh")
    /// try await bus.advance(by: .seconds(30))
    /// try await bus.expect(app, task: "com.example.Feed.refresh", outcome: .killed)
    /// ```
    ///
    /// - Parameters:
    ///   - app: The app whose task runs.
    ///   - identifier: The submitted task's identifier.
    /// - Throws: ``EventRejected`` when the device refused the event (`unknownTask`, `backgroundTasksUnavailable`),
    ///   ``LaunchTimedOut`` when the launch it asked for ran out its budget (``LifebusTestBusError`` when the broker
    ///   does not answer).
    public func runBackgroundTask(_ app: LifebusTestApp, _ identifier: String) async throws {
        try await fire(.backgroundTask(app.id, identifier: identifier, action: .run))
    }

    /// The user cancels the running continued-processing task `identifier` of `app` (`lifebus fire bgtask APP ID
    /// --cancel`, `ios26`+): its expiration handler runs. Another kind of task, or none running, throws
    /// `EventRejected` (`unknownTask`).
    ///
    /// - Parameters:
    ///   - app: The app whose task is cancelled.
    ///   - identifier: The running continued-processing task's identifier.
    /// - Throws: ``EventRejected`` when the device refused the event (`unknownTask`) (``LifebusTestBusError`` when the
    ///   broker does not answer).
    public func cancelBackgroundTask(_ app: LifebusTestApp, _ identifier: String) async throws {
        try await fire(.backgroundTask(app.id, identifier: identifier, action: .cancel))
    }

    /// Sends `app` a push (`lifebus fire push APP`): silent by default (`content-available`: delivered through
    /// `didReceiveRemoteNotification`, launching the app into the background when it is not running, after
    /// `didEnterBackground` when it launches or resumes an app that does not use scenes — unless the user force-quit
    /// it: then it is `discarded` — rate-limited to `Profile.silentPushesPerHour`, the newest held beyond), or, with
    /// `alert`, a visible notification that reaches the app only when tapped (`fire(.launch(app, options:))` with the
    /// notification in the connection options) — or, in the foreground from `ios13`, through
    /// `willPresentNotification`, whose options the journal keeps (`presented`). `payload` is the
    /// notification's JSON object, as text. With `tap` the visible notification is tapped at once (`lifebus fire push
    /// APP --alert --tap`): the app comes to the front as `launch APP --push` brings it (launched if it is not
    /// running, the payload in the launch options or the connecting scene's `notificationResponse`, and from `ios13`
    /// in `didReceiveNotificationResponse` too). Returns once the push's callbacks were answered.
    ///
    /// - Parameters:
    ///   - app: The app the push is for.
    ///   - payload: The notification's JSON object, as text; `{}` by default.
    ///   - alert: Whether the push is a visible notification rather than a silent one; `false` by default.
    ///   - tap: Whether the user taps the visible notification at once (implies `alert`); `false` by default.
    /// - Throws: ``EventRejected`` when the device refused the event (`deviceLocked` for a tap on a locked device),
    ///   ``LaunchTimedOut`` when a launch it asked for ran out its budget (``LifebusTestBusError`` when the broker
    ///   does not answer).
    public func push(_ app: LifebusTestApp, payload: String = "{}", alert: Bool = false, tap: Bool = false)
        async throws
    {
        let visible = alert || tap
        try await fire(.push(app.id, PushNotification(
            contentAvailable: !visible, alert: visible, payload: payload, tapped: tap)))
    }

    /// Locks the device (`fire sleep`): the running apps are told `protectedDataWillBecomeUnavailable` where the
    /// profile has data protection (a suspended app when it runs again, `Profile.queuesProtectedDataNotifications`),
    /// and `Profile.protectedDataLockDelay` later on the device's clock (`advance(by:)`) their protected files fail
    /// with `EPERM` until `unlock()`.
    ///
    /// - Throws: ``EventRejected`` when the device refused the event (``LifebusTestBusError`` when the broker does not
    ///   answer).
    public func lock() async throws {
        try await fire(.sleep)
    }

    /// Unlocks the device (`fire wake`): protected data is available again (`protectedDataDidBecomeAvailable`).
    ///
    /// - Throws: ``EventRejected`` when the device refused the event (``LifebusTestBusError`` when the broker does not
    ///   answer).
    public func unlock() async throws {
        try await fire(.wake)
    }

    /// Whether the device's protected data is available now (the broker's `protectedData` query): `false` from the
    /// lock delay after `lock()` until `unlock()`; always `true` under a profile without data protection.
    ///
    /// - Returns: Whether protected data is available.
    /// - Throws: ``LifebusTestBusError`` when the broker does not answer, or when its answer has no `available`.
    public func isProtectedDataAvailable() async throws -> Bool {
        let answer = try await transport.request(LifebusMethod.protectedData, .object([:]))
        guard let available = answer["available"]?.boolValue else {
            throw LifebusTestBusError("the broker's protectedData answer has no available: \(answer.jsonText)")
        }
        return available
    }

    /// Expects the latest run of the `BGTask` `identifier` of `app` to have ended `outcome`, as its task records say:
    /// `completed` or `failed` (`setTaskCompleted(success:)` before expiry), `expired` (completed after its
    /// expiration handler), `killed` (neither in time: the app killed, `backgroundTaskExpired`), or still `running`.
    /// A failure is reported as the other expectations' are, with the task's records; on a live broker it waits up to
    /// `within` for a matching recording.
    ///
    /// - Parameters:
    ///   - app: The app whose task records are read.
    ///   - identifier: The task's identifier.
    ///   - expected: The ending expected.
    ///   - within: How long a live bus waits for a matching recording (in memory it looks once).
    ///   - fileID: Where the expectation is written (for the failure report); leave the default.
    ///   - filePath: As `fileID`.
    ///   - line: As `fileID`.
    ///   - column: As `fileID`.
    /// - Throws: `LifebusTestBusError` when the bus cannot reach its broker, or, outside any test, with the failure
    ///   report when the expectation fails (in a test a failure is recorded as an issue and the test goes on).
    public func expect(
        _ app: LifebusTestApp, task identifier: String, outcome expected: BackgroundTaskOutcome,
        within: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let caller = ExpectationCaller(fileID: fileID, filePath: filePath, line: line, column: column)
        var records: [BackgroundTaskRecord] = []
        var actual: BackgroundTaskOutcome?
        try await poll(within: within) {
            records = taskRecords(of: app, identifier: identifier)
            actual = BackgroundTaskOutcome(identifier: identifier, in: records)
            return actual == expected
        }
        guard actual != expected else { return }
        let recorded = records.map { record in
            "\(record.event.rawValue)" + (record.success.map { " success: \($0)" } ?? "")
        }
        try await report(
            app, "\(app.id)'s task \(identifier) " + (actual.map { "ended \($0.rawValue)" } ?? "never ran")
                + ", expected \(expected.rawValue)",
            comparison: ReportText.comparison(
                expected: [expected.rawValue], recorded: recorded.isEmpty ? ["no task record"] : recorded),
            at: caller)
    }

    /// The task records of `identifier` of `app` in the journal, oldest first.
    private func taskRecords(of app: LifebusTestApp, identifier: String) -> [BackgroundTaskRecord] {
        journal.compactMap { entry in
            guard case .task(let record) = entry, record.app == app.id.rawValue, record.identifier == identifier
            else { return nil }
            return record
        }
    }
}
