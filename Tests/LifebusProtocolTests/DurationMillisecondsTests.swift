import LifebusLifecycle
import PropertyBased
import Testing

/// The one `Duration` ↔ milliseconds helper never traps, whatever number a peer sends, and saturates at the bounds.
@Suite struct DurationMillisecondsTests {
    @Test func millisecondsRoundTripAndAnyNumberIsClampedNotTrapped() {
        #expect(Duration(clampingMilliseconds: 1.5) == .microseconds(1500))
        #expect(Duration(clampingMilliseconds: 1.5).inMilliseconds == 1.5)
        #expect(Duration.seconds(2).inMilliseconds == 2000)
        #expect(Duration(clampingMilliseconds: .nan) == .zero)
        #expect(Duration(clampingMilliseconds: .infinity) == .nanoseconds(Int64.max))
        #expect(Duration(clampingMilliseconds: 1e300) == .nanoseconds(Int64.max))
        #expect(Duration(clampingMilliseconds: -.infinity) == .nanoseconds(Int64.min))
        #expect(Duration(clampingMilliseconds: -1e300) == .nanoseconds(Int64.min))
    }

    @Test func nanosecondsSaturateAndDeadlinesNeverGoNegative() {
        #expect(Duration.milliseconds(3).signedNanoseconds == 3_000_000)
        #expect((Duration.zero - .milliseconds(3)).signedNanoseconds == -3_000_000)
        #expect(Duration.seconds(Int64.max).signedNanoseconds == .max)
        #expect((Duration.zero - .seconds(Int64.max)).signedNanoseconds == .min)
        #expect(Duration.milliseconds(3).clampedNanoseconds == 3_000_000)
        #expect((Duration.zero - .milliseconds(3)).clampedNanoseconds == 0)
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == .max)
    }

    /// The conversions take a shortcut for durations that are not negative: at the edges and at random, each one
    /// equals the same formula over the standard library's `components` (which traps beyond `Int64.max` seconds, so
    /// the random durations stay within ±2^122 attoseconds).
    @Test func theShortcutAgreesWithComponents() async {
        func check(_ duration: Duration) {
            let (seconds, attoseconds) = duration.components
            #expect(duration.inMilliseconds == Double(seconds) * 1_000 + Double(attoseconds) / 1e15, "\(duration)")
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
            #expect(duration.signedNanoseconds == (overflow || overflow2 ? (seconds < 0 ? .min : .max) : sum))
        }
        let bound = Duration(_high: 0, low: UInt64(Int64.max))
        let edges = [Duration.zero, .nanoseconds(1), .seconds(5), bound, bound + .init(_high: 0, low: 1),
                     bound - .init(_high: 0, low: 1), .zero - .nanoseconds(1), .seconds(9), .seconds(10),
                     .seconds(Int64.max), .zero - .seconds(Int64.max)]
        for duration in edges {
            check(duration)
        }
        let lows = Gen.int(in: Int.min...Int.max), highs = Gen.int(in: -(1 << 58)...(1 << 58))
        await propertyCheck(count: 2000, input: lows, highs) { low, high in
            check(Duration(_high: Int64(high), low: UInt64(bitPattern: Int64(low))))
        }
    }
}
