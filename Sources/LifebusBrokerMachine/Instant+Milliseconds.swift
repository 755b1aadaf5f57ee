public import LifebusCore
import LifebusLifecycle

extension Instant {
    /// Milliseconds from `start` to this instant (negative before it).
    public func milliseconds(since start: Instant) -> Double {
        Double(Int64(bitPattern: nanoseconds &- start.nanoseconds)) / 1_000_000
    }
}
