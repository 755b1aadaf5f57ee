public import LifebusLifecycle
import LifebusProtocol

/// `lifebus run --diff`: what stopped happening when one scenario ran under a later profile than the one before it
/// (`--profile ios7,ios27` compares ios7 with ios27; `all` compares each profile with the one before it) — the
/// migration report. Only losses are reported, in the direction of the selection: a mark an app made under the
/// earlier profile and not (or fewer times) under the later one, a callback that was called and whose marks went with
/// it, a run that passed and then failed — and, under the later profile, work an app did while suspended.
///
/// Stateless and pure: everything is read from the two runs' journal entries. A mark belongs to the callback its app
/// was running when the mark arrived (`AppActivity`), so a save that only ever ran in `didEnterBackground` is
/// reported with the callback that no longer comes.
public enum MigrationDiff {
    /// One thing that happened under `earlier` and did not under `later`, for one app (or for the run).
    public struct Loss: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// `callback` was called under the earlier profile and never under the later one; `marks` are the marks
            /// the app made while running it there (each with how many times), none of which the later run has;
            /// `implemented` when the app declared it handles the callback (hello's `implements`, journaled with its
            /// `connected` record) — then it is reported even without marks.
            case callbackNeverCalled(LifecycleCallback, marks: [MarkCount], implemented: Bool)
            /// The app made mark `name` `earlier` times under the earlier profile and `later` times under the later.
            case markLost(name: String, earlier: Int, later: Int)
            /// The run passed under the earlier profile and failed under the later one, for `reason`.
            case runFailed(reason: String)
            /// Under the later profile the app made mark `name` while suspended and running no callback: work after
            /// it left the foreground (`didEnterBackground`, `sceneDidEnterBackground`) without a background task,
            /// which a device would not have run. (Reported whether or not the earlier run did the same.)
            case workWhileSuspended(name: String, atMs: Double)
        }

        /// A mark's name and how many times it was made.
        public struct MarkCount: Sendable, Equatable {
            public var name: String
            public var count: Int
        }

        public var earlier: Profile
        public var later: Profile
        /// The app it is about; `nil` for a run that failed.
        public var app: String?
        public var kind: Kind

        /// One line saying what stopped happening.
        public var text: String {
            let prefix = app.map { "\($0): " } ?? ""
            switch kind {
            case .callbackNeverCalled(let callback, let marks, let implemented):
                let lost = marks.map { $0.count > 1 ? "\($0.name) (\($0.count)×)" : $0.name }.joined(separator: ", ")
                let head = implemented
                    ? "\(callback.rawValue) is implemented but never called under \(later.rawValue) (it was under "
                        + "\(earlier.rawValue))"
                    : "\(callback.rawValue) was called under \(earlier.rawValue) and never under \(later.rawValue)"
                guard !marks.isEmpty else { return prefix + head }
                return prefix + head + ": its mark\(marks.count > 1 ? "s" : "") \(lost) "
                    + "\(marks.count > 1 ? "are" : "is") missing"
            case .markLost(let name, let before, let after):
                return prefix + "mark \(name) made \(times(before)) under \(earlier.rawValue), "
                    + "\(after == 0 ? "never" : times(after)) under \(later.rawValue)"
            case .runFailed(let reason):
                return "the run passed under \(earlier.rawValue) and failed under \(later.rawValue): \(reason)"
            case .workWhileSuspended(let name, let atMs):
                return prefix + "mark \(name) at \(atMs) ms under \(later.rawValue) while suspended: work after "
                    + "leaving the foreground without a background task, which a device would not run"
            }
        }

        private func times(_ count: Int) -> String {
            count == 1 ? "once" : "\(count) times"
        }
    }

    /// The profiles compared, in pairs: each result with the one before it, in the order the results are.
    public static func pairs(_ run: ScenarioFileRun) -> [(earlier: ScenarioResult, later: ScenarioResult)] {
        zip(run.results, run.results.dropFirst()).map { ($0, $1) }
    }

    /// Every loss of `run`, pair by pair, then app by app in the order the earlier run first names them.
    public static func losses(_ run: ScenarioFileRun) -> [Loss] {
        pairs(run).flatMap { losses(from: $0.earlier, to: $0.later) }
    }

    /// What the run under `later` lost against the run under `earlier`.
    public static func losses(from earlier: ScenarioResult, to later: ScenarioResult) -> [Loss] {
        var losses: [Loss] = []
        if earlier.passed, !later.passed {
            let reason = later.failure ?? later.failedStep.map { step in
                "step \(step.number) \(step.step.summary): \(step.message ?? "failed")"
            } ?? "failed"
            losses.append(
                Loss(earlier: earlier.profile, later: later.profile, app: nil, kind: .runFailed(reason: reason)))
        }
        let before = AppActivity.read(earlier.entries)
        let after = AppActivity.read(later.entries)
        for app in after.order {
            for mark in after.apps[app]!.marksWhileSuspended {
                losses.append(Loss(
                    earlier: earlier.profile, later: later.profile, app: app,
                    kind: .workWhileSuspended(name: mark.name, atMs: mark.atMs)))
            }
        }
        for app in before.order {
            let was = before.apps[app]!
            let now = after.apps[app] ?? AppActivity.App()
            var explained: Set<String> = []
            for callback in was.callbacks where !now.callbacks.contains(callback) {
                let marks = was.marksDuring[callback, default: []].filter { (now.marks[$0] ?? 0) == 0 }
                let implemented = was.implemented.contains(callback) || now.implemented.contains(callback)
                guard !marks.isEmpty || implemented else { continue }
                explained.formUnion(marks)
                let counted = marks.map { Loss.MarkCount(name: $0, count: was.marks[$0] ?? 0) }
                losses.append(Loss(
                    earlier: earlier.profile, later: later.profile, app: app,
                    kind: .callbackNeverCalled(callback, marks: counted, implemented: implemented)))
            }
            for name in was.markOrder where !explained.contains(name) {
                let count = was.marks[name] ?? 0
                let left = now.marks[name] ?? 0
                if left < count {
                    losses.append(Loss(
                        earlier: earlier.profile, later: later.profile, app: app,
                        kind: .markLost(name: name, earlier: count, later: left)))
                }
            }
        }
        return losses
    }
}

/// What each app did in one run, as the diff compares it: the callbacks it was called with (in first-call order),
/// the marks it made with their counts (in first-mark order), which marks it made while running which callback, and
/// the marks it made while the broker had it suspended (work a device would not have let it do).
///
/// A mark was made during a callback when the app's next transition in the journal (answered after the mark) is that
/// callback's and was sent at or before the mark: one callback runs at a time per app, and a record is journaled
/// when its callback is answered. Journal order, not time alone, decides, so a manual clock where every entry shares
/// one instant reads the same.
struct AppActivity {
    struct App {
        var callbacks: [LifecycleCallback] = []
        var marks: [String: Int] = [:]
        var markOrder: [String] = []
        /// For each callback, the marks made while it ran, in first-mark order.
        var marksDuring: [LifecycleCallback: [String]] = [:]
        /// The marks made while the app was suspended and running no callback, in journal order.
        var marksWhileSuspended: [MarkRecord] = []
        /// The callbacks the app declared it implements (its `connected` records' `implements`).
        var implemented: Set<LifecycleCallback> = []
    }

    var order: [String] = []
    var apps: [String: App] = [:]

    static func read(_ entries: [JournalEntry]) -> AppActivity {
        var activity = AppActivity()
        var transitions: [String: [TransitionRecord]] = [:]
        for entry in entries {
            if case .transition(let record) = entry {
                transitions[record.app, default: []].append(record)
            }
        }
        for entry in entries {
            switch entry {
            case .transition(let record):
                guard let callback = record.callback else { continue }
                activity.touch(record.app)
                if !activity.apps[record.app]!.callbacks.contains(callback) {
                    activity.apps[record.app]!.callbacks.append(callback)
                }
            case .mark(let mark):
                activity.touch(mark.app)
                activity.apps[mark.app]!.count(mark.name)
                let own = transitions[mark.app, default: []]
                let next = own.firstIndex { $0.seq > mark.seq }
                if let next, let callback = own[next].callback, own[next].sentMs <= mark.atMs {
                    if !activity.apps[mark.app]!.marksDuring[callback, default: []].contains(mark.name) {
                        activity.apps[mark.app]!.marksDuring[callback, default: []].append(mark.name)
                    }
                } else if let previous = (next.map { own[..<$0] } ?? own[...]).last, previous.to == .suspended {
                    activity.apps[mark.app]!.marksWhileSuspended.append(mark)
                }
            case .process(let record):
                guard !record.implements.isEmpty else { continue }
                activity.touch(record.app)
                activity.apps[record.app]!.implemented.formUnion(record.implements)
            case .run, .task, .push, .protectedData:
                continue
            }
        }
        return activity
    }

    private mutating func touch(_ app: String) {
        if apps[app] == nil {
            apps[app] = App()
            order.append(app)
        }
    }
}

extension AppActivity.App {
    mutating func count(_ mark: String) {
        if marks[mark] == nil { markOrder.append(mark) }
        marks[mark, default: 0] += 1
    }
}
