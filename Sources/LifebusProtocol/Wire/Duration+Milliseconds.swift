/// The one conversion between `Duration` and the wire's milliseconds (`timeoutMs`, `handlerMs`, `budgetMs`, …) and
/// the one clamp of a `Duration` to whole nanoseconds for monotonic deadlines. Pure; every user above
/// `LifebusProtocol` (broker, RPC, SDK, CLI, MCP) goes through it.
///
/// Never traps, whatever a peer sends: a number of milliseconds that is not finite, or beyond ±`Int64.max`
/// nanoseconds, becomes the nearest bound (NaN becomes zero); a negative duration becomes zero nanoseconds.
/// (`LifebusIO` rounds a `Duration` up to libuv's whole milliseconds itself — it depends on no Lifebus module — and
/// `LifebusCore`'s `Instant` adds durations in saturating nanoseconds for the same reason.)
extension Duration {
    /// The duration in milliseconds, as records and params carry it.
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    /// The duration of `milliseconds` read from the wire, saturating (see the type's comment): no number traps.
    public init(clampingMilliseconds milliseconds: Double) {
        let nanoseconds = (milliseconds * 1_000_000).rounded()
        if nanoseconds.isNaN {
            self = .zero
        } else if nanoseconds >= 0x1p63 {
            self = .nanoseconds(Int64.max)
        } else if nanoseconds < -0x1p63 {
            self = .nanoseconds(Int64.min)
        } else {
            self = .nanoseconds(Int64(nanoseconds))
        }
    }

    /// Whole nanoseconds for a deadline on a monotonic clock: zero when negative, saturating at `UInt64.max`.
    public var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (scaled, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflow2) = scaled.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || overflow2 ? .max : sum
    }
}
