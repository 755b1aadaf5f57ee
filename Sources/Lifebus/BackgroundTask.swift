/// The id of a background task, minted by the broker (unique per app connection): the counterpart of
/// `UIBackgroundTaskIdentifier`. A plain value.
public struct BackgroundTaskIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The broker's task id.
    public let rawValue: Int64

    /// Wraps a task id the broker minted.
    ///
    /// - Parameter rawValue: The broker's task id.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { "task \(rawValue)" }
}

/// A handle on a memory-warning observer, for `Application.removeObserver(_:)`. A plain value.
public struct ObserverToken: Hashable, Sendable {
    let number: Int
}
