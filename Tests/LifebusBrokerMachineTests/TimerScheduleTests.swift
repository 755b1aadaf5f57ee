import LifebusCore
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
