@testable import LifebusBrokerMachine
import LifebusCore

extension TimerSchedule {
    /// Every timer due at `now`, earliest first, taken one at a time as the machine takes them.
    mutating func takeDue(at now: Instant) -> [Key] {
        var due: [Key] = []
        while let key = takeFirstDue(at: now) { due.append(key) }
        return due
    }
}

extension MachineClock {
    /// Every real-time deadline due at `now`, earliest first, taken one at a time as the machine takes them.
    mutating func takeDue(at now: Instant) -> [BrokerMachine.Deadline] {
        var due: [BrokerMachine.Deadline] = []
        while let deadline = takeFirstDue(at: now) { due.append(deadline) }
        return due
    }
}
