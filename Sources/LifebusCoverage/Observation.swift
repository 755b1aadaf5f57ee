public import LifebusLifecycle
public import LifebusProtocol

/// One journal record seen in its context, what a row's evidence is matched against: the run's profile, the
/// record, the event that caused it (read back from its label) and the other transitions that event caused.
///
/// Invariant: `sameEvent` holds the transitions of the run with the same cause `eventID` (this one included), in
/// journal order; it is empty for a record without a cause. `previous` is the app's transition before this record in
/// the run. `protectedDataLost` says whether the run's protected data became unavailable after the last
/// `protectedDataWillBecomeUnavailable` before this record; `taskExpiring` whether a task record's task was told it
/// expires (an `expiring` step of the same app and identifier since its `launched` one).
public struct Observation: Sendable {
    /// What was recorded.
    public enum Record: Sendable {
        case transition(TransitionRecord)
        case process(ProcessRecord)
        /// A step of a `BGTask` (issue 28).
        case task(BackgroundTaskRecord)
        /// A step of a push's delivery (issue 28).
        case push(PushDeliveryRecord)
    }

    /// The run's profile; `nil` when the journal holds no run record before it (or names an unknown profile).
    public var profile: Profile?
    public var record: Record
    /// The event behind a transition; `nil` for a process record, a transition without cause, or a cause whose
    /// label does not read back as an event.
    public var event: ControllerEvent?
    public var sameEvent: [TransitionRecord]
    public var previous: TransitionRecord?
    public var protectedDataLost: Bool
    public var taskExpiring: Bool

    public init(
        profile: Profile?, record: Record, event: ControllerEvent?, sameEvent: [TransitionRecord],
        previous: TransitionRecord? = nil, protectedDataLost: Bool = false, taskExpiring: Bool = false
    ) {
        self.profile = profile
        self.record = record
        self.event = event
        self.sameEvent = sameEvent
        self.previous = previous
        self.protectedDataLost = protectedDataLost
        self.taskExpiring = taskExpiring
    }

    /// The app the record is about.
    public var app: String {
        switch record {
        case .transition(let transition): transition.app
        case .process(let process): process.app
        case .task(let task): task.app
        case .push(let push): push.app
        }
    }

    /// The transition, when the record is one.
    public var transition: TransitionRecord? {
        if case .transition(let transition) = record { return transition }
        return nil
    }

    /// Whether the transition had a cause at all (a connection's launch, a crash, a sampled jetsam have none).
    public var hasCause: Bool { transition?.cause != nil }

    /// The callbacks the same event sent this record's app (`nil` for a transition without callback), in order.
    public var appCallbacks: [LifecycleCallback?] {
        sameEvent.filter { $0.app == app }.map(\.callback)
    }

    /// Whether the same event suspended this record's app.
    public var appSuspended: Bool {
        sameEvent.contains { $0.app == app && $0.callback == nil && $0.from == .background && $0.to == .suspended }
    }
}

extension Observation {
    /// The observations of a journal, in order: every transition, process, task and push record, each with the
    /// profile of the run it belongs to (the last `start` run record before it) and the transitions of its event.
    public static func all(in entries: [JournalEntry]) -> [Observation] {
        var result: [Observation] = []
        var run: [JournalEntry] = []
        var profile: Profile?
        func flush() {
            result += observations(ofRun: run, profile: profile)
            run = []
        }
        for entry in entries {
            if case .run(let record) = entry, record.reason == .start {
                flush()
                profile = record.profile
            } else {
                run.append(entry)
            }
        }
        flush()
        return result
    }

    private static func observations(ofRun entries: [JournalEntry], profile: Profile?) -> [Observation] {
        var byEvent: [Int64: [TransitionRecord]] = [:]
        for case .transition(let record) in entries {
            if let cause = record.cause { byEvent[cause.eventID, default: []].append(record) }
        }
        var last: [String: TransitionRecord] = [:]
        var dataLost = false
        var expiring: Set<TaskKey> = []
        return entries.compactMap { entry in
            switch entry {
            case .transition(let record):
                let sameEvent = record.cause.map { byEvent[$0.eventID] ?? [] } ?? []
                defer { last[record.app] = record }
                if record.callback == .protectedDataWillBecomeUnavailable { dataLost = false }
                return Observation(profile: profile, record: .transition(record),
                                   event: record.cause?.controllerEvent, sameEvent: sameEvent,
                                   previous: last[record.app], protectedDataLost: dataLost)
            case .process(let record):
                return Observation(profile: profile, record: .process(record), event: nil, sameEvent: [])
            case .task(let record):
                let key = TaskKey(app: record.app, identifier: record.identifier)
                switch record.event {
                case .launched: expiring.remove(key)
                case .expiring: expiring.insert(key)
                case .submitted, .completed, .expired, .cancelled, .deferred: break
                }
                return Observation(profile: profile, record: .task(record), event: nil, sameEvent: [],
                                   taskExpiring: expiring.contains(key) && record.event != .expiring)
            case .push(let record):
                return Observation(profile: profile, record: .push(record), event: nil, sameEvent: [])
            case .protectedData(let record):
                if !record.available { dataLost = true }
                return nil
            case .mark, .run:
                return nil
            }
        }
    }
}

/// One task of one app, as the task records name it.
private struct TaskKey: Hashable {
    var app: String
    var identifier: String
}
