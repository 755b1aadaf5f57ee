public import LifebusJSON
public import LifebusProtocol

/// What the app asks of the broker. Each call crosses to the I/O thread and waits for the broker's answer; it
/// throws the broker's `RPCError`, or `lifebus.ConnectionClosed` when the app is not connected (or the
/// connection ended before the answer).
extension Application {
    /// Reports a fact (e.g. `state-saved`) that the broker journals and shows to observers; returns once journaled.
    ///
    /// - Parameters:
    ///   - name: The fact's name, e.g. `state-saved`: what a test's mark expectation waits for.
    ///   - data: Details the broker journals with it (JSON values: `["count": .integer(3)]`); none by default.
    /// - Throws: The broker's `RPCError`, or `lifebus.ConnectionClosed` when the app is not connected.
    public func mark(_ name: String, data: JSONObject = [:]) async throws(RPCError) {
        _ = try await call(LifebusMethod.mark, MarkParams(name: name, data: data.isEmpty ? nil : data).json)
    }

    /// Tells the broker how much memory the app uses (the broker ends the largest first when memory runs out).
    ///
    /// - Parameter bytes: The app's memory footprint in bytes.
    /// - Throws: The broker's `RPCError`, or `lifebus.ConnectionClosed` when the app is not connected.
    public func reportMemory(bytes: Int64) async throws(RPCError) {
        _ = try await call(LifebusMethod.reportMemory, ReportMemoryParams(bytes: bytes).json)
    }

    /// Hands the broker an opaque payload (at most 64 KiB of UTF-8) to give back in `LaunchOptions.restorationState`
    /// when the app is relaunched after any kill (installed apps only: `lifebus.AppNotFound` otherwise).
    ///
    /// - Parameter state: The payload, at most 64 KiB of UTF-8; the latest one saved wins.
    /// - Throws: The broker's `RPCError` (`lifebus.AppNotFound` for an app the broker did not install), or
    ///   `lifebus.ConnectionClosed` when the app is not connected.
    public func saveRestorationState(_ state: String) async throws(RPCError) {
        _ = try await call(LifebusMethod.saveRestorationState, SaveRestorationStateParams(state: state).json)
    }

    /// Asks for time to finish work in the background: the counterpart of UIKit's `beginBackgroundTask`.
    /// `expirationHandler` runs on the main actor when the broker says the time is up; it should end the task
    /// (`endBackgroundTask`) promptly, as UIKit requires.
    ///
    /// - Parameters:
    ///   - name: A name for the task, shown in the broker's journal and `lifebus status`; none by default.
    ///   - expirationHandler: Runs on the main actor when the task's time is up; none by default.
    /// - Returns: The task's identifier, for ``Application/endBackgroundTask(_:)``.
    /// - Throws: The broker's `RPCError` (the broker refuses a task when the app may not run in the background), or
    ///   `lifebus.ConnectionClosed` when the app is not connected.
    public func beginBackgroundTask(
        name: String? = nil,
        expirationHandler: (@MainActor () -> Void)? = nil
    ) async throws(RPCError) -> BackgroundTaskIdentifier {
        let answer = try await call(LifebusMethod.beginBackgroundTask, BackgroundTaskBeginParams(name: name).json)
        let task = BackgroundTaskIdentifier(rawValue: try BackgroundTaskBeginResult(json: answer).taskID)
        expirationHandlers[task] = expirationHandler
        if earlyExpirations.remove(task) != nil, let expirationHandler {
            Task { @MainActor in expirationHandler() }
        }
        return task
    }

    /// Ends a background task; the broker refuses an unknown id with -32602.
    ///
    /// - Parameter task: What ``Application/beginBackgroundTask(name:expirationHandler:)`` returned.
    /// - Throws: The broker's `RPCError` (-32602 for an unknown task), or `lifebus.ConnectionClosed` when the app is
    ///   not connected.
    public func endBackgroundTask(_ task: BackgroundTaskIdentifier) async throws(RPCError) {
        expirationHandlers[task] = nil
        _ = try await call(LifebusMethod.endBackgroundTask, BackgroundTaskEndParams(taskID: task.rawValue).json)
    }

    /// Sends one request through the I/O thread and waits for its answer.
    func call(_ method: String, _ params: JSONValue) async throws(RPCError) -> JSONValue {
        if let host { return try await host(method, params).get() }
        guard let link else { throw BrokerLink.notConnected }
        typealias Answer = CheckedContinuation<Result<JSONValue, RPCError>, Never>
        // The I/O thread always completes the request, unless its loop has already closed (after `willTerminate`
        // was answered): nothing may call the broker after that.
        let result = await withCheckedContinuation { (answer: Answer) in
            link.withLink { brokerLink in
                brokerLink.request(method, params) { answer.resume(returning: $0) }
            }
        }
        return try result.get()
    }
}
