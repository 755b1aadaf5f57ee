import LifebusExpectation
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The `expect` tool's background checks (issue 28): the last step in scope of one task (`task`, with `taskEvent`
/// and `taskSuccess`) and the fetch result of the app's last answered push (`pushResult`). A plain value read from
/// the tool's arguments (a wrong one is `jsonrpc.InvalidParams` naming it); its checks read the app's task and push
/// records in scope. Invariant: `taskEvent` and `taskSuccess` are only given with `task`, `taskSuccess` only with
/// `taskEvent` `completed`.
struct BackgroundExpectation {
    var task: String?
    var taskEvent: BackgroundTaskRecord.Event?
    var taskSuccess: Bool?
    var pushResult: BackgroundFetchResult?

    init(_ arguments: JSONObject) throws(RPCError) {
        if let value = arguments["task"] {
            guard let identifier = value.stringValue, RegisterBackgroundTaskParams.isValidIdentifier(identifier) else {
                throw RPCError.invalidParams(field: "task", "must be a task identifier")
            }
            task = identifier
        }
        if let value = arguments["taskEvent"] {
            guard let name = value.stringValue, let event = BackgroundTaskRecord.Event(rawValue: name) else {
                let names = BackgroundTaskRecord.Event.allCases.map(\.rawValue).joined(separator: ", ")
                throw RPCError.invalidParams(field: "taskEvent", "must be one of \(names)")
            }
            guard task != nil else { throw RPCError.invalidParams(field: "taskEvent", "needs task") }
            taskEvent = event
        }
        if let value = arguments["taskSuccess"] {
            guard let success = value.boolValue else {
                throw RPCError.invalidParams(field: "taskSuccess", "must be true or false")
            }
            guard taskEvent == .completed else {
                throw RPCError.invalidParams(field: "taskSuccess", "needs taskEvent completed")
            }
            taskSuccess = success
        }
        if let value = arguments["pushResult"] {
            guard let name = value.stringValue, let result = BackgroundFetchResult(rawValue: name) else {
                let names = BackgroundFetchResult.allCases.map(\.rawValue).joined(separator: ", ")
                throw RPCError.invalidParams(field: "pushResult", "must be one of \(names)")
            }
            pushResult = result
        }
    }

    var isEmpty: Bool { task == nil && pushResult == nil }

    /// The checks on the app's `entries` in scope, oldest first (none when nothing was asked).
    func check(_ entries: [JournalEntry]) -> [Expectation.Result] {
        var results: [Expectation.Result] = []
        if let task {
            let last = entries.last { entry in
                if case .task(let record) = entry { return record.identifier == task }
                return false
            }
            var recorded = "no step"
            var passed = false
            if case .task(let record)? = last {
                recorded = Self.describe(record.event, record.success)
                passed = (taskEvent.map { $0 == record.event } ?? true)
                    && (taskSuccess.map { $0 == record.success } ?? true)
            }
            let expected = taskEvent.map { Self.describe($0, taskSuccess) } ?? "a step"
            results.append(Expectation.Result(
                check: "task \(task)", expected: expected, recorded: recorded, passed: passed))
        }
        if let pushResult {
            let answered = entries.compactMap { entry -> PushDeliveryRecord? in
                if case .push(let record) = entry, record.result != nil { return record }
                return nil
            }.last
            let recorded = answered.map { "\($0.event.rawValue) \($0.result?.rawValue ?? "?")" } ?? "no answered push"
            results.append(Expectation.Result(
                check: "push result", expected: pushResult.rawValue, recorded: recorded,
                passed: answered?.result == pushResult))
        }
        return results
    }

    /// `completed true`, `expired`: a task step as the checks name it.
    private static func describe(_ event: BackgroundTaskRecord.Event, _ success: Bool?) -> String {
        success.map { "\(event.rawValue) \($0)" } ?? event.rawValue
    }
}
