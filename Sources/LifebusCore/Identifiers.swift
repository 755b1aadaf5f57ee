/// A controller event's identity, chosen by the caller (the broker numbers its events).
/// Must be unique among the events the device has not answered yet.
public struct EventID: CounterIdentifier, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String {
        "#\(rawValue)"
    }
}

/// One callback request, minted by the device; the app's answer must quote it.
public struct CallbackID: CounterIdentifier, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String {
        "cb\(rawValue)"
    }
}

/// One timer, numbered by the device in the order it arms them (`TimerQueue`); ties at one deadline go by it.
public struct TimerID: CounterIdentifier, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String {
        "t\(rawValue)"
    }
}
