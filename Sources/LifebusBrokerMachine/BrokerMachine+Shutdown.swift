import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// How a stopping broker keeps Protocol/README.md §4's promise that exactly one response follows each request:
/// every request still pending is answered `lifebus.BrokerShuttingDown` before its connection closes, a request
/// that arrives while the peers drain is answered the same, and a connection opened meanwhile is told so and closed.
/// The apps the broker spawned are terminated first (`willTerminate`) and keep their connection to answer.
extension BrokerMachine {
    mutating func shutdown(into effects: inout [BrokerEffect]) {
        guard !isShuttingDown else { return }
        let terminating = terminateSpawnedApps(into: &effects)
        commitJournal(into: &effects)
        isShuttingDown = true
        let advance = clock.stop()
        effects.append(.armTimer(nil))
        for ticket in deliveries.events.takeAllWaiting() {
            effects.append(.reply(ticket, .failure(Self.shuttingDownError)))
        }
        if let advance {
            effects.append(.reply(advance.ticket, .failure(Self.shuttingDownError)))
        }
        for waiter in deliveries.waiters.takeAll() {
            effects.append(.reply(waiter.ticket, .failure(Self.shuttingDownError)))
        }
        for session in sessions.ids.sorted(by: { $0.rawValue < $1.rawValue }) where !terminating.contains(session) {
            effects.append(.close(session, .afterFlush))
        }
    }
}
