/// The phone call's state, as `status` reports it. The raw value is the wire spelling.
public enum CallStatus: String, Sendable, Hashable, CaseIterable {
    case none
    case ringing
    case inProgress
}

/// The kind of alert on screen, as `status` reports it (a ringing call is reported through `CallStatus`). The raw
/// value is the wire spelling.
public enum AlertKind: String, Sendable, Hashable, CaseIterable {
    case sms
    case calendar
}
