public import LifebusCore
import LifebusLifecycle

extension Duration {
    /// The duration in milliseconds, as records carry it.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// The duration from `milliseconds`, as apps report handler times: saturating, so no number traps (a value
    /// that is not finite, or beyond ±`Int64.max` nanoseconds, becomes the nearest bound; NaN becomes zero).
    public static func fromMilliseconds(_ milliseconds: Double) -> Duration {
        let nanoseconds = (milliseconds * 1_000_000).rounded()
        guard !nanoseconds.isNaN else { return .zero }
        guard nanoseconds < 0x1p63 else { return .nanoseconds(Int64.max) }
        guard nanoseconds >= -0x1p63 else { return .nanoseconds(Int64.min) }
        return .nanoseconds(Int64(nanoseconds))
    }
}

extension Instant {
    /// Milliseconds from `start` to this instant (negative before it).
    public func milliseconds(since start: Instant) -> Double {
        Double(Int64(bitPattern: nanoseconds &- start.nanoseconds)) / 1_000_000
    }
}
