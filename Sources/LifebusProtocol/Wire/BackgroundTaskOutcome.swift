/// How one run of a `BGTask` ended, read from its task records (`BackgroundTaskRecord`): what a scenario's `expect`
/// (`task: {identifier, outcome}`) and the test kit's `expect(_:task:outcome:)` compare. The raw value is the
/// spelling both use.
public enum BackgroundTaskOutcome: String, Sendable, Hashable, CaseIterable {
    /// Launched, not ended yet (neither completed nor killed).
    case running
    /// `setTaskCompleted(success: true)` before its expiration handler was called.
    case completed
    /// `setTaskCompleted(success: false)` before its expiration handler was called.
    case failed
    /// Its expiration handler was called (`backgroundTaskWillExpire`), and the app then completed it in time.
    case expired
    /// Neither completed nor expired in time: the app was killed (`backgroundTaskExpired`).
    case killed

    /// The outcome of the latest run of `identifier` among `records` (oldest first): the records from its last
    /// `launched` on (all of them when none is `launched`: a run that began before them); `nil` when they show no
    /// run of the task (only `submitted` or `cancelled`, or nothing).
    public init?(identifier: String, in records: [BackgroundTaskRecord]) {
        let ofTask = records.filter { $0.identifier == identifier }
        let launched = ofTask.lastIndex { $0.event == .launched }
        let run = ofTask[(launched ?? ofTask.startIndex)...]
        let expiring = run.contains { $0.event == .expiring }
        if run.contains(where: { $0.event == .expired }) {
            self = .killed
        } else if let completed = run.last(where: { $0.event == .completed }) {
            self = expiring ? .expired : completed.success == false ? .failed : .completed
        } else if launched != nil || expiring {
            self = .running
        } else {
            return nil
        }
    }

    /// The spellings, for messages.
    public static let names = allCases.map(\.rawValue)
}
