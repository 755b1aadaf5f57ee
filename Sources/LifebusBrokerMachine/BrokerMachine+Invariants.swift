import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// The machine's invariants, checked after inputs in debug builds (`assert(checkInvariantsWhenDue())` in `handle`),
/// as `Device` checks its own. Each names a fact the rest of the machine relies on; `invariantViolations` says which
/// ones are broken.
extension BrokerMachine {
    /// Checks the invariants after every input while the machine holds up to 64 sessions and installed apps, and
    /// after every `count / 64`-th input when it holds more (a debug broker under a 1,000-peer load would otherwise
    /// scan every session after every line).
    mutating func checkInvariantsWhenDue() -> Bool {
        invariantCheckCountdown -= 1
        guard invariantCheckCountdown <= 0 else { return true }
        invariantCheckCountdown = max(1, (sessions.count + processes.installed.count) / 64)
        return invariantViolations.isEmpty
    }

    /// The broken invariants, in words; empty when the machine is sound.
    public var invariantViolations: [String] {
        var broken = sessions.invariantViolations + processes.invariantViolations + clock.invariantViolations
            + deliveries.invariantViolations
        func expect(_ holds: Bool, _ what: @autoclosure () -> String) {
            if !holds { broken.append(what()) }
        }
        for app in processes.spawnedApps where processes.isFrozen(app) {
            expect(settings.freezesSuspended, "\(app) is frozen without --freeze-suspended")
            expect(device.state(of: app) == .suspended, "\(app) is frozen but \(device.state(of: app))")
        }
        expect(isShuttingDown == clock.isStopped, "the clock announces after shutdown, or stopped without it")
        expect(clock.isStopped || clock.deviceDeadline == device.earliestDeadline,
               "the clock's device deadline is not the core's earliest")
        return broken
    }
}
