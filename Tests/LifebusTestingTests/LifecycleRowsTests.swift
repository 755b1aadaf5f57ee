import Lifebus
import LifebusCore
import LifebusLifecycle
import LifebusTesting
import LifecycleContract
import Testing

/// The rows of `Protocol/lifecycle.md` that a test can say with the kit alone — apps that connect and answer, fired
/// events, time passing; no process starts, kills, rejections or expirations — read through `LifebusTestBus`: in
/// memory under every profile, and on the live broker too when the row moves no time (until the live broker's
/// manual clock lands, time there is real). The transitions and app states must be the row's.
@Suite("Protocol/lifecycle.md through LifebusTesting", .timeLimit(.minutes(5)))
@MainActor
struct LifecycleRowsTests {
    /// A delegate that answers every callback at once.
    final class Answering: ApplicationDelegate {}

    nonisolated static let plainRows = LifecycleTable.all.filter { row in
        let steps = (row.setup + row.steps).allSatisfy { step in
            switch step {
            case .connect, .fire, .elapse: true
            default: false
            }
        }
        let lines = row.expected.values.flatMap(\.journal)
        return steps && lines.allSatisfy { line in
            !["start ", "kill ", "reject ", "expiring "].contains { line.hasPrefix($0) }
        }
    }

    @Test func aGoodShareOfTheRowsIsPlain() {
        #expect(Self.plainRows.count >= 20, "\(Self.plainRows.count) of \(LifecycleTable.all.count)")
    }

    @Test("a plain row behaves as specified", arguments: plainRows, Profile.allCases)
    func row(_ row: Row, _ profile: Profile) async throws {
        let expected = try #require(row.expected[profile])
        try await play(row, profile, on: .inMemory, expecting: expected, exactOrder: true)
        let movesTime = (row.setup + row.steps).contains { if case .elapse = $0 { true } else { false } }
        if !movesTime { try await play(row, profile, on: .live, expecting: expected, exactOrder: false) }
    }

    private func play(
        _ row: Row, _ profile: Profile, on transport: LifebusTestBus.Transport, expecting expected: Expected,
        exactOrder: Bool
    ) async throws {
        let bus = try await LifebusTestBus(transport, profile: profile)
        var apps: [AppID: LifebusTestApp] = [:]
        for step in row.setup { try await run(step, on: bus, apps: &apps) }
        let start = bus.timeline.entries.count
        for step in row.steps { try await run(step, on: bus, apps: &apps) }
        let transitions = bus.timeline.entries.dropFirst(start).compactMap(Self.line)
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

    private func run(_ step: Step, on bus: LifebusTestBus, apps: inout [AppID: LifebusTestApp]) async throws {
        switch step {
        case .connect(let id, let flags):
            let options = ApplicationOptions(
                exitsOnSuspend: flags.exitsOnSuspend, backgroundModes: flags.backgroundModes,
                launchInBackground: flags.launchInBackground
            )
            apps[id] = try await bus.launch(id, delegate: Answering(), options: options)
        case .fire(let event):
            try await bus.fire(event)
        case .elapse(let duration):
            try await bus.advance(by: duration)
        default:
            Issue.record("not a plain step: \(step)")
        }
    }
}
