import Lifebus
import LifebusLifecycle
import LifebusTesting
import LifecycleContract
import Testing

/// The scene rows of `Protocol/lifecycle.md` (S01…) that the kit plays (`LifecycleTable.sceneRows` less
/// `LifecycleTable.notYetLive`), through `LifebusTestBus` under every profile each applies to: in memory (the exact
/// journal order) and on the live broker (each app's and each scene's lines in order). Scene apps are launched with a
/// scene delegate; the row's transitions (a scene's as `A/1 callback from→to outcome`), refusals, app states, scene
/// states and kept payloads (`A.s1=2:foregroundActive+saved`) must be the row's.
@Suite("Protocol/lifecycle.md's scene rows through LifebusTesting", .timeLimit(.minutes(5)))
@MainActor
struct SceneRowsTests {
    /// A delegate that answers every callback at once.
    final class Answering: ApplicationDelegate {}

    /// A scene delegate that answers at once and keeps `payload` as each scene's restoration payload.
    final class Scenes: SceneDelegate {
        var payload: String?

        func stateRestorationActivity(for scene: Scene) async -> String? { payload }
    }

    nonisolated static let rows = LifecycleTable.sceneRows.filter { LifecycleTable.notYetLive[$0.id] == nil }

    @Test("a scene row the kit runs behaves as specified", arguments: rows, Profile.allCases)
    func row(_ row: Row, _ profile: Profile) async throws {
        guard let expected = row.expected[profile] else {
            #expect(row.inapplicable[profile] != nil, "row \(row.id) has no expectation for \(profile)")
            return
        }
        try await play(row, profile, on: .inMemory, expecting: expected, exactOrder: true)
        try await play(row, profile, on: .live, expecting: expected, exactOrder: false)
    }

    /// The apps of a row being played, and their scene delegates.
    private struct Stage {
        var apps: [AppID: LifebusTestApp] = [:]
        var scenes: [AppID: Scenes] = [:]
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
            let rejection = try await run(step, on: bus, stage: &stage)
            transitions += bus.timeline.entries.dropFirst(start).compactMap(Self.line)
            transitions += rejection.map { ["reject \($0.rawValue)"] } ?? []
        }
        let place = "\(row.id) \(profile) \(exactOrder ? "in memory" : "live")"
        if exactOrder {
            #expect(transitions == expected.journal, "\(place)")
        } else {
            #expect(Self.byLane(transitions) == Self.byLane(expected.journal), "\(place)")
        }
        try await check(expected.situation, on: bus, stage: stage, place)
        await bus.shutdown()
    }

    /// Checks the situation's app states (`A=active`) and sessions (`A.s1=2:foregroundActive+saved`, `A.s1=-`).
    private func check(_ situation: String, on bus: LifebusTestBus, stage: Stage, _ place: String) async throws {
        for part in situation.split(separator: " ") {
            let pair = part.split(separator: "=").map(String.init)
            guard pair.count == 2 else { continue }
            let name = pair[0].split(separator: ".").map(String.init)
            guard let app = stage.apps[AppID(name[0])] else { continue }
            if name.count == 1 {
                if let state = LifecycleState(rawValue: pair[1]) { try await bus.expect(app, state: state) }
                continue
            }
            let session = SceneSessionID(try #require(UInt32(name[1].dropFirst())))
            let saved = pair[1].hasSuffix("+saved")
            #expect(try await bus.savedSessions(of: app).contains(session) == saved, "\(place): \(part)")
            let scene = pair[1].replacingOccurrences(of: "+saved", with: "").split(separator: ":").map(String.init)
            guard scene.count == 2, let number = UInt32(scene[0]), let state = SceneState(rawValue: scene[1]) else {
                continue
            }
            try await bus.expect(app, scene: SceneID(number), state: state)
        }
    }

    /// A transition in the table's notation (`A willResignActive active→inactive ok`,
    /// `A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok`); `nil` for a mark.
    nonisolated static func line(_ entry: BusTimeline.Entry) -> String? {
        switch entry {
        case .transition(let app, let callback, let from, let to, let outcome):
            "\(app) \(callback?.rawValue ?? "-") \(from)→\(to) \(outcome)"
        case .sceneTransition(let app, let scene, _, let callback, let from, let to, let outcome):
            "\(app)/\(scene.number) \(callback?.rawValue ?? "-") \(from)→\(to) \(outcome)"
        case .mark:
            nil
        }
    }

    /// The lines grouped by lane (the first word: an app, or one of its scenes), each lane's in order.
    private static func byLane(_ lines: [String]) -> [String: [String]] {
        Dictionary(grouping: lines) { String($0.prefix { $0 != " " }) }
    }

    /// Runs `step`; returns why the device refused it, if it did (an event, or a scene app's hello).
    private func run(_ step: Step, on bus: LifebusTestBus, stage: inout Stage) async throws -> RejectionReason? {
        switch step {
        case .connect(let id, let flags):
            let options = ApplicationOptions(
                exitsOnSuspend: flags.exitsOnSuspend, backgroundModes: flags.backgroundModes,
                launchInBackground: flags.launchInBackground, supportsMultipleScenes: flags.supportsMultipleScenes,
                destructionConditions: flags.destructionConditions
            )
            let scenes = flags.adoptsScenes ? Scenes() : nil
            do {
                stage.apps[id] = try await bus.launch(
                    id, delegate: Answering(), sceneDelegate: scenes, options: options)
                stage.scenes[id] = scenes
            } catch let error as LifebusTestBusError where error.description.contains("adopts scenes") {
                return .scenesUnsupported
            }
        case .fire(let event):
            do {
                try await bus.fire(event)
            } catch let rejected as EventRejected {
                return rejected.reason
            }
        case .restores(let id, let payload):
            try #require(stage.scenes[id]).payload = payload
        default:
            Issue.record("the kit's scene rows have no verb for \(step): list the row in LifecycleTable.notYetLive")
        }
        return nil
    }
}
