/// The one conversion between `Duration` and the wire's milliseconds (`timeoutMs`, `handlerMs`, `budgetMs`, …) and
/// the one conversion of a `Duration` to whole nanoseconds (signed, for the core's `Instant` arithmetic, or clamped
/// at zero, for monotonic deadlines). Pure; in the leaf module every pure and I/O user above it shares (the core,
/// the protocol, the broker machine, the CLI, MCP).
///
/// Never traps, whatever a peer sends: a number of milliseconds that is not finite, or beyond ±`Int64.max`
/// nanoseconds, becomes the nearest bound (NaN becomes zero); nanoseconds saturate at their type's bounds.
/// (`LifebusIO` rounds a `Duration` up to libuv's whole milliseconds itself: it depends on no Lifebus module.)
extension Duration {
    /// The duration in milliseconds, as records and params carry it.
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = wholeComponents
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

    /// The duration in whole nanoseconds, saturating at the bounds of `Int64`.
    public var signedNanoseconds: Int64 {
        let (seconds, attoseconds) = wholeComponents
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow || overflow2 {
            return seconds < 0 ? .min : .max
        }
        return sum
    }

    /// Whole nanoseconds for a deadline on a monotonic clock: zero when negative, saturating at `UInt64.max`.
    public var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = wholeComponents
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (scaled, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflow2) = scaled.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || overflow2 ? .max : sum
    }

    /// `components`, from one 128-by-64-bit division (one `div` instruction) when the duration is not negative and
    /// under about 292 billion years; `components` runs a general 128-bit division.
    private var wholeComponents: (seconds: Int64, attoseconds: Int64) {
        let attosecondsPerSecond: UInt64 = 1_000_000_000_000_000_000
        guard _high >= 0, UInt64(_high) < attosecondsPerSecond else { return components }
        let (seconds, attoseconds) = attosecondsPerSecond.dividingFullWidth((UInt64(_high), _low))
        guard seconds <= UInt64(Int64.max) else { return components }
        return (Int64(seconds), Int64(attoseconds))
    }
}
