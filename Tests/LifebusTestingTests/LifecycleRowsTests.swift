import Lifebus
import LifebusCore
import LifebusLifecycle
import LifebusTesting
import LifecycleContract
import Testing

/// The rows of `Protocol/lifecycle.md` that a test can say with the kit alone (`LifecycleTable.kitRows`) — apps that
/// connect and answer, or hold their answers until released; fired events (refused ones too: `EventRejected`), fired
/// without waiting while an app is held; time passing; crashes — read through `LifebusTestBus` under every profile, in
/// memory (the exact journal order) and on the live broker with its manual clock (each app's lines in order: answers of
/// one instant arrive as they come). The transitions, rejections and app states must be the row's. The other rows
/// (`LifecycleTable.driverRows`) run through the core's `Harness` and the integration `RowRunner` only;
/// `RowCoverageTests` checks that every row of the document is run by exactly one side.
@Suite("Protocol/lifecycle.md through LifebusTesting", .hangGuard)
@MainActor
struct LifecycleRowsTests {
    /// A delegate that answers every callback at once.
    final class Answering: ApplicationDelegate {}

    @Test("a row the kit runs behaves as specified", arguments: LifecycleTable.kitRows, Profile.allCases)
    func row(_ row: Row, _ profile: Profile) async throws {
        guard let expected = row.expected[profile] else {
            #expect(row.inapplicable[profile] != nil, "row \(row.id) has no expectation for \(profile)")
            return
        }
        try await play(row, profile, on: .inMemory, expecting: expected, exactOrder: true)
        try await play(row, profile, on: .live, expecting: expected, exactOrder: false)
    }

    /// The apps of a row being played, by the row's names, the ones held, and the events fired while one was held
    /// (waiting for its release or crash).
    private struct Stage {
        var apps: [AppID: LifebusTestApp] = [:]
        var held: Set<AppID> = []
        var pending: [FiredEvent] = []
    }

    private func play(
        _ row: Row, _ profile: Profile, on transport: LifebusTestBus.Transport, expecting expected: Expected,
        exactOrder: Bool
    ) async throws {
        let bus = try await LifebusTestBus(transport, profile: profile)
        var stage = Stage()
        for step in row.setup { _ = try await run(step, on: bus, stage: &stage) }
        var transitions: [String] = []
        for step in row.steps {
            let start = bus.timeline.entries.count
            let rejections = try await run(step, on: bus, stage: &stage)
            transitions += bus.timeline.entries.dropFirst(start).compactMap(Self.line)
            transitions += rejections.map { "reject \($0.rawValue)" }
        }
        #expect(stage.pending.isEmpty, "\(row.id): events still waiting for a held app at the end")
        let apps = stage.apps
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

    /// Runs `step`; returns why the device refused what it fired, if it did — for a release or a crash, the
    /// refusals of the events that waited for the app, in the order they were fired.
    private func run(_ step: Step, on bus: LifebusTestBus, stage: inout Stage) async throws -> [RejectionReason] {
        switch step {
        case .connect(let id, let flags):
            let options = ApplicationOptions(
                exitsOnSuspend: flags.exitsOnSuspend, backgroundModes: flags.backgroundModes,
                launchInBackground: flags.launchInBackground
            )
            stage.apps[id] = try await bus.launch(id, delegate: Answering(), options: options)
        case .fire(let event):
            let fired = try await bus.fire(event, waiting: false)
            guard stage.held.isEmpty else {
                stage.pending.append(fired)
                return []
            }
            return try await Self.completions([fired])
        case .hold(let id):
            try bus.hold(try #require(stage.apps[id]))
            stage.held.insert(id)
        case .release(let id):
            try await bus.release(try #require(stage.apps[id]))
            stage.held.remove(id)
            return try await finishPending(&stage)
        case .elapse(let duration):
            try await bus.advance(by: duration)
        case .crash(let id):
            try await bus.crash(try #require(stage.apps[id]))
            stage.held.remove(id)
            return try await finishPending(&stage)
        default:
            Issue.record("the kit has no verb for \(step): take the row out of LifecycleTable.kitRowIDs")
        }
        return []
    }

    /// Once no app is held, waits for the events fired meanwhile; their refusals.
    private func finishPending(_ stage: inout Stage) async throws -> [RejectionReason] {
        guard stage.held.isEmpty else { return [] }
        defer { stage.pending = [] }
        return try await Self.completions(stage.pending)
    }

    /// Waits for each event in turn; the refusals among them.
    private static func completions(_ events: [FiredEvent]) async throws -> [RejectionReason] {
        var rejections: [RejectionReason] = []
        for event in events {
            do {
                try await event.completion()
            } catch let rejected as EventRejected {
                rejections.append(rejected.reason)
            }
        }
        return rejections
    }
}
