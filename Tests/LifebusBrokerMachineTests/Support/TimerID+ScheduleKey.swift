import LifebusCore

@testable import LifebusBrokerMachine

/// The schedule's tests file plain numbered timers: a `TimerID` is the simplest key with a counter.
extension TimerID: ScheduleKey {
    var counter: UInt64? { rawValue }

    init(counter: UInt64) {
        self.init(counter)
    }
}
