import Lifebus
import LifebusCore
import LifebusLifecycle
import LifebusTesting
import LifecycleContract
import Testing

/// The rows of `Protocol/lifecycle.md` that a test can say with the kit alone (`LifecycleTable.kitRows`) — apps that
/// connect and answer, fired events (refused ones too: `EventRejected`), time passing, crashes — read through
/// `LifebusTestBus` under every profile, in memory (the exact journal order) and on the live broker with its manual
/// clock (each app's lines in order: answers of one instant arrive as they come). The transitions, rejections and app
/// states must be the row's. The other rows (`LifecycleTable.driverRows`) run through the core's `Harness` and the
/// integration `RowRunner` only; `RowCoverageTests` checks that every row of the document is run by exactly one side.
@Suite("Protocol/lifecycle.md through LifebusTesting", .timeLimit(.minutes(5)))
@MainActor
struct LifecycleRowsTests {
    /// A delegate that answers every callback at once.
    final class Answering: ApplicationDelegate {}

    @Test("a row the kit runs behaves as specified", arguments: LifecycleTable.kitRows, Profile.allCases)
    func row(_ row: Row, _ profile: Profile) async throws {
        let expected = try #require(row.expected[profile])
        try await play(row, profile, on: .inMemory, expecting: expected, exactOrder: true)
        try await play(row, profile, on: .live, expecting: expected, exactOrder: false)
    }

    private func play(
        _ row: Row, _ profile: Profile, on transport: LifebusTestBus.Transport, expecting expected: Expected,
        exactOrder: Bool
    ) async throws {
        let bus = try await LifebusTestBus(transport, profile: profile)
        var apps: [AppID: LifebusTestApp] = [:]
        for step in row.setup { _ = try await run(step, on: bus, apps: &apps) }
        var transitions: [String] = []
        for step in row.steps {
            let start = bus.timeline.entries.count
            let rejection = try await run(step, on: bus, apps: &apps)
            transitions += bus.timeline.entries.dropFirst(start).compactMap(Self.line)
            if let rejection { transitions.append("reject \(rejection.rawValue)") }
        }
        if exactOrder {
            #expect(transitions == expected.journal, "\(row.id) \(profile) in memory")
        } else {  // answers of one instant come in the order they arrive, each app's in its own order
            #expect(Self.byApp(transitions) == Self.byApp(expected.journal), "\(row.id) \(profile) live")
        }
        for part in expected.situation.split(separator: " ") {
            let pair = part.split(separator: "=")
            guard pair.count == 2, let app = apps[AppID(String(pair[0]))],
                let state = LifecycleState(rawValue: String(pair[1]))
            else { continue }
            try await bus.expect(app, state: state)
        }
        await bus.shutdown()
    }

    /// A transition in the table's notation (`A willResignActive active→inactive ok`); `nil` for a mark.
    nonisolated static func line(_ entry: BusTimeline.Entry) -> String? {
        guard case .transition(let app, let callback, let from, let to, let outcome) = entry else { return nil }
        return "\(app) \(callback?.rawValue ?? "-") \(from)→\(to) \(outcome)"
    }

    /// The lines grouped by app (the first word), each app's in order.
    private static func byApp(_ lines: [String]) -> [String: [String]] {
        Dictionary(grouping: lines) { String($0.prefix { $0 != " " }) }
    }

    /// Runs `step`; returns why the device refused it, if it did.
    private func run(
        _ step: Step, on bus: LifebusTestBus, apps: inout [AppID: LifebusTestApp]
    ) async throws -> RejectionReason? {
        switch step {
        case .connect(let id, let flags):
            let options = ApplicationOptions(
                exitsOnSuspend: flags.exitsOnSuspend, backgroundModes: flags.backgroundModes,
                launchInBackground: flags.launchInBackground
            )
            apps[id] = try await bus.launch(id, delegate: Answering(), options: options)
        case .fire(let event):
            do {
                try await bus.fire(event)
            } catch let rejected as EventRejected {
                return rejected.reason
            }
        case .elapse(let duration):
            try await bus.advance(by: duration)
        case .crash(let id):
            try await bus.crash(try #require(apps[id]))
        default:
            Issue.record("the kit has no verb for \(step): take the row out of LifecycleTable.kitRowIDs")
        }
        return nil
    }
}
