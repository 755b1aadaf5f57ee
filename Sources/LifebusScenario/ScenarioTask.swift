import LifebusLifecycle
public import LifebusProtocol

/// An expected `BGTask` ending: the latest run of the task `identifier` in scope ended `outcome` (`expect: {task:
/// {identifier: com.example.Feed.refresh, outcome: killed}}`). A plain value.
public struct ScenarioTask: Sendable, Equatable {
    public var identifier: String
    public var outcome: BackgroundTaskOutcome

    public init(identifier: String, outcome: BackgroundTaskOutcome) {
        self.identifier = identifier
        self.outcome = outcome
    }
}

/// An expected ending of the latest silent push in scope (`expect: {push: newData}`): its completion handler's
/// result in time, or `late` (called after its budget), or `deferred` (held by the rate limit, not delivered yet), or
/// `discarded` (never to be delivered: its app was force-quit, or a newer push or the app's end discarded it held).
/// The raw value is the file's spelling.
public enum ScenarioPushOutcome: String, Sendable, Hashable, CaseIterable {
    case newData
    case noData
    case failed
    case late
    case deferred
    case discarded

    /// The outcome one app's push records (oldest first) show for its latest push, by the latest record: `nil` when
    /// there is none, or the latest push was delivered and not answered yet.
    init?(_ records: [PushDeliveryRecord]) {
        guard let last = records.last else { return nil }
        switch last.event {
        case .delivered, .presented: return nil  // `presented`: a visible notification, no silent push's ending
        case .deferred: self = .deferred
        case .discarded: self = .discarded
        case .late: self = .late
        case .answered:
            switch last.result ?? .noData {
            case .newData: self = .newData
            case .noData: self = .noData
            case .failed: self = .failed
            }
        }
    }
}
