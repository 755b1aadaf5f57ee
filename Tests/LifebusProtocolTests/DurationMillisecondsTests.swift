import LifebusLifecycle
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
}
