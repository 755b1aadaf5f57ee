import LifebusProtocol
import Testing

@Suite struct DurationTextTests {
    @Test(arguments: [
        ("250ms", Duration.milliseconds(250)), ("5s", .seconds(5)), ("2m", .seconds(120)),
        ("1.5s", .milliseconds(1500)), ("100us", .microseconds(100)), ("100µs", .microseconds(100)),
        ("10ns", .nanoseconds(10)), ("1h", .seconds(3600)), ("0s", .zero), ("0.25m", .seconds(15)),
        ("1.0000000001s", .seconds(1)),
    ])
    func parsesNumberAndUnit(text: String, duration: Duration) {
        #expect(DurationText.parse(text) == duration)
    }

    @Test(arguments: ["", "5", "ms", "-5s", "+5s", "5 s", "5sec", "1.s", ".5s", "5S", "1e3ms", "99999999999999999999s",
                      "9999999999h", "5s "])
    func rejectsGarbageAndNegatives(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test(arguments: [
        (Duration.milliseconds(250), "250ms"), (.seconds(5), "5s"), (.seconds(120), "2m"),
        (.milliseconds(1500), "1500ms"), (.microseconds(100), "100us"), (.nanoseconds(7), "7ns"), (.zero, "0s"),
        (.seconds(7200), "2h"), (.milliseconds(-250), "-250ms"),
    ])
    func formatsInTheLargestExactUnit(duration: Duration, text: String) {
        #expect(DurationText.format(duration) == text)
    }

    @Test func formatThenParseGivesTheSameDuration() {
        for nanoseconds: Int64 in [0, 1, 999, 1000, 1_000_001, 59_999_999_999, 60_000_000_000, 86_400_000_000_000] {
            let duration = Duration.nanoseconds(nanoseconds)
            #expect(DurationText.parse(DurationText.format(duration)) == duration)
        }
    }
}
