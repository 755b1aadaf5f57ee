import LifebusLifecycle

/// A point on a monotonic clock, in nanoseconds since an arbitrary origin chosen by the caller.
///
/// `LifebusCore` never reads a clock: every input arrives with its `Instant`, and deadlines leave as timer
/// actions carrying one. The broker uses `uv_hrtime`; tests use a virtual clock that starts at `.zero`.
/// A plain value, usable from any thread. Arithmetic saturates instead of trapping.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the caller's origin.
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The origin of the caller's clock.
    public static let zero = Instant(nanoseconds: 0)

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The instant `rhs` after `lhs`; a negative duration moves backwards, saturating at `.zero`.
    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        let delta = rhs.signedNanoseconds
        if delta >= 0 {
            let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(UInt64(delta))
            return Instant(nanoseconds: overflow ? .max : sum)
        }
        let magnitude = delta.magnitude
        return Instant(nanoseconds: lhs.nanoseconds > magnitude ? lhs.nanoseconds - magnitude : 0)
    }

    /// The signed time from `rhs` to `lhs`.
    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        if lhs >= rhs {
            return .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
        }
        return .zero - .nanoseconds(rhs.nanoseconds - lhs.nanoseconds)
    }

    public var description: String {
        "\(nanoseconds / 1_000_000_000).\(String(nanoseconds % 1_000_000_000 + 1_000_000_000).dropFirst())s"
    }
}

extension Duration {
    /// The larger of `self` and zero.
    var clampedToZero: Duration {
        self < .zero ? .zero : self
    }
}
