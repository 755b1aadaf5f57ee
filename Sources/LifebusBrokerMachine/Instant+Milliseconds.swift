public import LifebusCore
import LifebusLifecycle

extension Instant {
    /// Milliseconds from `start` to this instant (negative before it).
    public func milliseconds(since start: Instant) -> Double {
        Double(Int64(bitPattern: nanoseconds &- start.nanoseconds)) / 1_000_000
    }

    /// Nanoseconds from `start` to this instant (negative before it): `milliseconds(since:)` as an integer.
    public func nanoseconds(since start: Instant) -> Int64 {
        Int64(bitPattern: nanoseconds &- start.nanoseconds)
    }
}
