public import LifebusLifecycle

extension ProcessRecord {
    /// The `reason` of a process record: why the broker killed the process (`killed`, and `exited` when that kill
    /// ended it) or dropped its connection (`disconnected`). The raw value is the wire spelling: a `KillReason`'s or
    /// an `OutputDrop`'s, which share none.
    public enum Reason: Sendable, Hashable, CaseIterable, RawRepresentable {
        case kill(KillReason)
        case drop(OutputDrop)

        public static let allCases: [Reason] = KillReason.allCases.map(kill) + OutputDrop.allCases.map(drop)

        public init?(rawValue: String) {
            if let kill = KillReason(rawValue: rawValue) {
                self = .kill(kill)
            } else if let drop = OutputDrop(rawValue: rawValue) {
                self = .drop(drop)
            } else {
                return nil
            }
        }

        public var rawValue: String {
            switch self {
            case .kill(let reason): reason.rawValue
            case .drop(let drop): drop.rawValue
            }
        }
    }
}
