import LifebusCore
import PropertyBased
import Testing

@testable import LifebusBrokerMachine

/// The broker machine keeps every deadline in one schedule served by one timer; these pin the schedule's rules.
@Suite struct TimerScheduleTests {
    private func at(_ milliseconds: UInt64) -> Instant {
        Instant(nanoseconds: milliseconds * 1_000_000)
    }

    @Test func dueTimersComeOutEarliestFirstAndOnlyOnce() {
        var schedule = TimerSchedule<TimerID>()
        schedule.arm(TimerID(2), at: at(20))
        schedule.arm(TimerID(1), at: at(10))
        schedule.arm(TimerID(3), at: at(30))
        #expect(schedule.earliestDeadline() == at(10))
        #expect(schedule.takeDue(at: at(9)).isEmpty)
        #expect(schedule.takeDue(at: at(20)) == [TimerID(1), TimerID(2)])
        #expect(schedule.takeDue(at: at(20)).isEmpty)
        #expect(schedule.earliestDeadline() == at(30))
        #expect(schedule.count == 1)
    }

    @Test func aCancelledTimerNeverComesDue() {
        var schedule = TimerSchedule<TimerID>()
        schedule.arm(TimerID(1), at: at(10))
        schedule.arm(TimerID(2), at: at(20))
        schedule.cancel(TimerID(1))
        #expect(schedule.earliestDeadline() == at(20))
        #expect(schedule.takeDue(at: at(100)) == [TimerID(2)])
        #expect(schedule.earliestDeadline() == nil)
    }

    @Test func reArmingMovesTheDeadline() {
        var schedule = TimerSchedule<TimerID>()
        schedule.arm(TimerID(1), at: at(10))
        schedule.arm(TimerID(1), at: at(50))
        #expect(schedule.takeDue(at: at(20)).isEmpty, "the old deadline no longer counts")
        #expect(schedule.takeDue(at: at(50)) == [TimerID(1)])
    }

    /// Budgets armed one after another and answered in the same order (a fan-out): each cancel drops its entry at
    /// once, so nothing stale is ever held and the earliest deadline needs no lookup.
    @Test func timersCancelledInTheOrderTheyWereArmedLeaveNothingBehind() {
        var schedule = TimerSchedule<TimerID>()
        for number in 1...1_000 {
            schedule.arm(TimerID(UInt64(number)), at: at(5_000 + UInt64(number)))
        }
        for number in 1...1_000 {
            schedule.cancel(TimerID(UInt64(number)))
            #expect(schedule.heldEntries == schedule.count)
            #expect(schedule.earliestDeadline() == (number < 1_000 ? at(5_001 + UInt64(number)) : nil))
        }
    }

    @Test func manyCancelledTimersDoNotAccumulate() {
        var schedule = TimerSchedule<TimerID>()
        for number in 1...10_000 {
            schedule.arm(TimerID(UInt64(number)), at: at(UInt64(number)))
            schedule.cancel(TimerID(UInt64(number)))
        }
        schedule.arm(TimerID(0), at: at(5))
        #expect(schedule.count == 1)
        #expect(schedule.takeDue(at: at(20_000)) == [TimerID(0)])
    }

    /// Random arms (mostly later than the last, as budgets from now are; sometimes earlier), cancels, re-arms,
    /// questions and takes, against a plain table of what is armed: the same earliest deadline, the same timers due
    /// in the same order, and, after an arm, never more entries held than
    /// twice the armed timers (or 64).
    @Test func randomOperationsAgreeWithAPlainTableOfArmedTimers() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...(1 << 20)).array(of: 1...600)) { numbers in
            var schedule = TimerSchedule<TimerID>()
            var reference: [UInt64: (deadline: UInt64, order: Int)] = [:]
            var now: UInt64 = 0
            var latest: UInt64 = 0
            for (step, number) in numbers.enumerated() {
                let key = UInt64(number >> 4) % 41
                switch number & 15 {
                case 0...7:  // arm: usually no earlier than the latest deadline armed
                    let deadline = number & 8 == 0 && number & 16 == 0
                        ? now + UInt64(number >> 6) % 50 : max(latest, now) + UInt64(number >> 6) % 3
                    latest = max(latest, deadline)
                    schedule.arm(TimerID(key), at: at(deadline))
                    reference[key] = (deadline, step)
                    // Stale entries are swept when a timer is armed.
                    #expect(schedule.heldEntries <= max(64, 2 * reference.count) + 1)
                case 8...10:
                    schedule.cancel(TimerID(key))
                    reference[key] = nil
                case 11...12:
                    let earliest = reference.values.map(\.deadline).min()
                    #expect(schedule.earliestDeadline() == earliest.map(at))
                default:
                    now += UInt64(number >> 6) % 20
                    let due = reference.filter { $0.value.deadline <= now }
                        .sorted { ($0.value.deadline, $0.value.order) < ($1.value.deadline, $1.value.order) }
                    #expect(schedule.takeDue(at: at(now)) == due.map { TimerID($0.key) })
                    for entry in due { reference[entry.key] = nil }
                }
                #expect(schedule.count == reference.count)
            }
        }
    }

    @Test func theEarliestDeadlineFollowsTheTopBeingCancelledOrReArmedAfterItWasAsked() {
        var schedule = TimerSchedule<TimerID>()
        schedule.arm(TimerID(1), at: at(10))
        schedule.arm(TimerID(2), at: at(20))
        #expect(schedule.earliestDeadline() == at(10))
        #expect(schedule.earliestDeadline() == at(10), "asked again with nothing changed")
        schedule.cancel(TimerID(1))
        #expect(schedule.earliestDeadline() == at(20), "the known top was cancelled")
        schedule.arm(TimerID(2), at: at(40))
        schedule.arm(TimerID(3), at: at(30))
        #expect(schedule.earliestDeadline() == at(30), "the known top was re-armed later")
        schedule.cancel(TimerID(2))
        #expect(schedule.earliestDeadline() == at(30), "cancelling another timer keeps the top")
        #expect(schedule.takeDue(at: at(30)) == [TimerID(3)])
        #expect(schedule.earliestDeadline() == nil)
    }
}
