import LifebusProtocol

/// One fact an app under test declares, as one `--fact` option of `lifebus run --random` spells it
/// (`AppFacts` says what each means and holds the run's set).
///
/// A plain value; `init?(_:)` reads what `text` writes (a mark is not empty; a restore's mark holds no `:`, what
/// follows its first `:` being the keys; a task's identifier is a well-formed one, what follows its `:` a duration).
public enum AppFact: Sendable, Equatable {
    /// `saves=MARK`: the app marks `MARK` before it answers every `didEnterBackground` and `willTerminate`.
    case saves(mark: String)
    /// `restores=MARK[:KEY,…]`: after a relaunch that follows a save, the app marks `MARK` with the saved `KEY`s
    /// (`nil`: every member the two marks share).
    case restores(mark: String, keys: [String]?)
    /// `scenes`: the apps adopt scenes and support several (under a profile with scenes; the app-delegate life
    /// cycle under one without), so the fuzzer weighs the scene events too.
    case scenes
    /// `task=ID[:AFTER]`: the app registers the `BGTask` identifier `ID` and submits an `appRefresh` request for it
    /// (to begin `AFTER` later on the device's clock; `nil`: when run) while it launches, and completes the task
    /// when it runs, so the fuzzer weighs `fire bgtask APP ID`.
    case task(identifier: String, after: Duration?)
    /// `pushes`: the fuzzer weighs silent pushes (`fire push APP`) and visible ones (`--alert`).
    case pushes
    /// `taps`: the user taps the apps' notifications, so the fuzzer weighs `fire push APP --tap` (a visible
    /// notification and its tap in one step: the app launched or brought to the front).
    case taps
    /// `processing=ID[:AFTER][:power][:network]`: the app registers and submits that `BGProcessingTask` while it
    /// launches and completes it when it runs, so the fuzzer draws the device's conditions (`ProcessingTaskFact`).
    case processing(ProcessingTaskFact)
    /// `protected=MARK`: the app marks `MARK` when a write to a protected file fails (`EPERM`: the device's
    /// protected data was unavailable), so "no protected write failed" breaks at such a mark.
    case protectedWrites(failureMark: String)

    /// The forms a fact takes, for help and errors.
    public static let forms = "saves=MARK, restores=MARK[:KEY,…], scenes, task=ID[:AFTER], "
        + "processing=ID[:AFTER][:power][:network], pushes, taps or protected=MARK"

    /// Reads one `--fact` value; `nil` when it is none of `forms`.
    public init?(_ text: String) {
        if let plain = [AppFact.scenes, .pushes, .taps].first(where: { $0.text == text }) {
            self = plain
            return
        }
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let value = text[text.index(after: equals)...]
        guard !value.isEmpty, !value.hasPrefix(":") else { return nil }
        switch text[..<equals] {
        case "saves":
            self = .saves(mark: String(value))
        case "restores":
            let parts = value.split(separator: ":", maxSplits: 1)
            let keys = parts.count > 1 ? parts[1].split(separator: ",").map(String.init) : nil
            self = .restores(mark: String(parts[0]), keys: keys)
        case "task":
            let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let after = parts.count > 1 ? DurationText.parse(parts[1]) : nil
            guard RegisterBackgroundTaskParams.isValidIdentifier(parts[0]), parts.count == 1 || after != nil else {
                return nil
            }
            self = .task(identifier: parts[0], after: after)
        case "processing":
            guard let task = ProcessingTaskFact(value) else { return nil }
            self = .processing(task)
        case "protected":
            self = .protectedWrites(failureMark: String(value))
        default:
            return nil
        }
    }

    /// The `--fact` value that declares it.
    public var text: String {
        switch self {
        case .saves(let mark): "saves=\(mark)"
        case .restores(let mark, let keys):
            "restores=\(mark)" + (keys.map { ":" + $0.joined(separator: ",") } ?? "")
        case .scenes: "scenes"
        case .task(let identifier, let after):
            "task=\(identifier)" + (after.map { ":" + DurationText.format($0) } ?? "")
        case .pushes: "pushes"
        case .taps: "taps"
        case .processing(let task): "processing=" + task.text
        case .protectedWrites(let mark): "protected=\(mark)"
        }
    }
}
