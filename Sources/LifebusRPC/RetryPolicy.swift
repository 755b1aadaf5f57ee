import LifebusProtocol

/// How a client keeps trying to reach the broker: the one policy of the CLI (`--retry-for`, a busy broker) and the
/// SDK (reconnection, `connectTimeout`). A plain value; `RetrySchedule` applies it, `BrokerConnector` drives it.
///
/// Delays start at `initialDelay` and double after each failure up to `maximumDelay` (at least 1 ms each). A broker
/// that is not there (or, with `retriesRefusals`, one that refuses `hello`) is tried until `deadline` after the
/// first attempt; a busy broker (its accept queue full, or it pushed this silent newcomer out to make room) until
/// `busyDeadline`. `nil` tries forever; `.zero` gives up after the first failure. A `hello` refused because the
/// broker's profile has no scenes (`lifebus.ScenesUnsupported`) is never tried again.
public struct RetryPolicy: Sendable, Equatable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    public var deadline: Duration?
    public var busyDeadline: Duration?
    public var retriesRefusals: Bool

    public init(
        initialDelay: Duration, maximumDelay: Duration, deadline: Duration?, busyDeadline: Duration?,
        retriesRefusals: Bool
    ) {
        self.initialDelay = max(initialDelay, .milliseconds(1))
        self.maximumDelay = max(maximumDelay, self.initialDelay)
        self.deadline = deadline
        self.busyDeadline = busyDeadline
        self.retriesRefusals = retriesRefusals
    }

    /// A one-shot command: waits `retryFor` for a broker that is starting (none: fails at once when nothing
    /// listens), and rides out a busy broker for 5 s; 10 ms doubling to 100 ms, so a broker that appears is found
    /// quickly.
    public static func command(retryFor: Duration?) -> RetryPolicy {
        let waited = retryFor ?? .zero
        return RetryPolicy(
            initialDelay: .milliseconds(10), maximumDelay: .milliseconds(100), deadline: waited,
            busyDeadline: max(waited, .seconds(5)), retriesRefusals: false)
    }
}

/// One run of attempts under a `RetryPolicy`: the next delay and whether to try again. A plain value; the caller
/// says how long ago the first attempt began (it never reads a clock).
public struct RetrySchedule: Sendable, Equatable {
    public let policy: RetryPolicy
    public private(set) var nextDelay: Duration

    public init(_ policy: RetryPolicy) {
        self.policy = policy
        nextDelay = policy.initialDelay
    }

    /// The wait before the next attempt after `failure`, `elapsed` after the first attempt began; `nil` gives up.
    /// The wait never runs past the deadline that applies, so the last attempt is made at it.
    public mutating func delay(after failure: BrokerSession.Failure, elapsed: Duration) -> Duration? {
        let limit: Duration?
        if failure.isBusy {
            limit = policy.busyDeadline
        } else if case .refused = failure, !policy.retriesRefusals {
            return nil
        } else if case .refused(let error) = failure, error.lifebusCode == .scenesUnsupported {
            return nil  // the broker's profile has no scenes: asking again cannot change that
        } else if case .untrusted = failure {
            return nil
        } else {
            limit = policy.deadline
        }
        var delay = nextDelay
        if let limit {
            guard elapsed < limit else { return nil }
            delay = min(delay, limit - elapsed)
        }
        nextDelay = min(nextDelay * 2, policy.maximumDelay)
        return delay
    }
}

extension BrokerSession.Failure {
    /// The broker is there but could not take this connection now: its accept queue was full (`EAGAIN`), or it
    /// closed this connection to make room for newer ones because it had not sent a byte yet (`Protocol/README.md`
    /// §15.1) — a flood, not a refusal.
    public var isBusy: Bool {
        switch self {
        case .unreachable(_, let error):
            return error.isAgain
        case .refused(let error):
            guard error.lifebusCode == .limitExceeded, let limit = error.data?["limit"]?.stringValue else {
                return false
            }
            return limit == "connectionsBeforeHello" || limit == "connectionsBeforeHelloPerUID"
        case .untrusted:
            return false
        }
    }
}
