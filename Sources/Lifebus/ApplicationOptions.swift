/// How `ApplicationMain` connects and what the app declares in `hello` (its Info.plist, in iOS terms).
///
/// A plain value (`Sendable`). Build it in code, or from the command line with `LaunchArguments`.
public struct ApplicationOptions: Sendable {
    /// The broker's socket; `nil` resolves it like every Lifebus tool does (`$LIFEBUS_SOCKET`,
    /// `$XDG_RUNTIME_DIR/lifebus.sock`, `/tmp/lifebus-$UID/lifebus.sock`).
    public var socketPath: String?
    /// `UIApplicationExitsOnSuspend`: terminate instead of suspending.
    public var exitsOnSuspend: Bool
    /// `UIBackgroundModes`, e.g. `audio`, `location`, `voip`.
    public var backgroundModes: [String]
    /// Launch straight into the background when the app connects.
    public var launchInBackground: Bool
    /// The first reconnection delay after the broker went away; it doubles on each failure up to `maxReconnectDelay`.
    public var reconnectDelay: Duration
    /// The longest reconnection delay.
    public var maxReconnectDelay: Duration
    /// Receives one line per connection event (connected, lost, retrying, refused), on the SDK's I/O thread.
    /// `nil` (the default) prints nothing.
    public var diagnostics: (@Sendable (String) -> Void)?

    public init(
        socketPath: String? = nil,
        exitsOnSuspend: Bool = false,
        backgroundModes: [String] = [],
        launchInBackground: Bool = false,
        reconnectDelay: Duration = .milliseconds(50),
        maxReconnectDelay: Duration = .seconds(2),
        diagnostics: (@Sendable (String) -> Void)? = nil
    ) {
        self.socketPath = socketPath
        self.exitsOnSuspend = exitsOnSuspend
        self.backgroundModes = backgroundModes
        self.launchInBackground = launchInBackground
        self.reconnectDelay = reconnectDelay
        self.maxReconnectDelay = maxReconnectDelay
        self.diagnostics = diagnostics
    }
}

/// The reconnection delays: `initial`, doubling after each failure, capped at `maximum`. A plain value.
struct Backoff: Equatable {
    let initial: Duration
    let maximum: Duration
    private(set) var next: Duration

    init(initial: Duration, maximum: Duration) {
        self.initial = max(initial, .milliseconds(1))
        self.maximum = max(maximum, self.initial)
        next = self.initial
    }

    /// The delay to wait now; the following one doubles (up to `maximum`).
    mutating func take() -> Duration {
        let delay = next
        next = min(next * 2, maximum)
        return delay
    }

    /// Back to `initial`, after a successful connection.
    mutating func reset() {
        next = initial
    }
}
