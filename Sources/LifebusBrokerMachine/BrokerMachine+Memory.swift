import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// Resident memory, sampled by the driver: each app's bytes become its footprint (jetsam kills the largest
/// first), are shown by `apps`, and with a device size the pressure they make is raised as iOS does: a rise to
/// `warning` is a memory warning to the running apps, and a round whose policy plans a jetsam kill is a critical
/// warning (suspended apps killed silently, with the figures journaled), and the background apps the policy also
/// needs gone are terminated; no new pressure event while one is in flight. An app over its manifest's
/// `memoryLimit` is killed at once, even in front (`jetsam`, with its figures).
extension BrokerMachine {
    mutating func memorySampled(_ round: MemoryRound, into effects: inout [BrokerEffect]) {
        for (app, bytes) in round.samples.sorted(by: { $0.key < $1.key }) where sessions.session(for: app) != nil {
            processes.resident[app] = bytes
            feedDevice(.memoryFootprint(app, bytes: UInt64(bytes)), into: &effects)
        }
        guard let level = round.level else { return }
        let previous = processes.pressure
        processes.pressure = level
        let device = round.deviceMemory ?? 0
        var jetsam = false
        var terminations: [AppID] = []
        for kill in round.kills {
            let limit = kill.limit.map { ", limit \($0) bytes" } ?? ""
            let figures = "resident \(kill.residentBytes) bytes\(limit), device total \(round.totalBytes) of "
                + "\(device) bytes, level \(level.rawValue)"
            if kill.reason == .jetsam, self.device.state(of: kill.app) == .suspended {
                processes.jetsamFigures[kill.app] = figures
                jetsam = true
            } else if kill.reason == .jetsam, self.device.state(of: kill.app) == .background {
                terminations.append(kill.app)
                logger.notice("terminated for memory pressure",
                              metadata: ["lifebus.app.id": "\(kill.app)", "lifebus.memory": "\(figures)"])
            } else if kill.reason == .memoryLimit, sessions.session(for: kill.app) != nil {
                processes.jetsamFigures[kill.app] = figures
                feedDevice(.memoryLimitExceeded(kill.app), into: &effects)
            }
        }
        let rose = level > (previous ?? .normal)
        // One pressure event at a time: rounds keep coming while one waits behind other events.
        guard deliveries.events.inFlight(session: Self.brokerSession) == 0 else { return }
        if let event = jetsam ? .critical : rose ? Self.warning(at: level) : nil {
            let id = deliveries.events.begin(
                label: "memory-pressure --level \(event.rawValue)", session: Self.brokerSession, ticket: nil)
            feedDevice(.fire(id, .memoryWarning(event)), into: &effects)
        }
        // Background apps the policy also needs gone are terminated (willTerminate), after the suspended ones.
        for app in terminations {
            let id = deliveries.events.begin(
                label: "memory-pressure terminate --app \(app)", session: Self.brokerSession, ticket: nil)
            feedDevice(.fire(id, .terminate(app, byUser: false)), into: &effects)
        }
    }

    /// The memory warning a rise to `level` raises: none at `normal`.
    static func warning(at level: MemoryPressure) -> MemoryWarningLevel? {
        MemoryWarningLevel(level)
    }

    /// The session number the broker's own events are filed under (no peer has it: sessions count from 1).
    static let brokerSession = SessionID(0)
}
