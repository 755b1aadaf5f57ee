import Glibc
import LifebusBrokerMachine
import LifebusCore
import LifebusIO

/// The broker's readings of time: the monotonic clock as the core's `Instant`, milliseconds since the broker
/// started (what records carry), and Unix wall time for journal readers.
///
/// A value fixed at broker start; reading it has no side effect on the core, which never reads a clock itself.
struct BrokerClock {
    let start = Instant(nanoseconds: EventLoop.monotonicNanoseconds())

    func now() -> Instant {
        Instant(nanoseconds: EventLoop.monotonicNanoseconds())
    }

    /// Milliseconds from broker start to `instant`.
    func milliseconds(_ instant: Instant) -> Double {
        instant.milliseconds(since: start)
    }

    /// Unix time in milliseconds.
    func wallMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
