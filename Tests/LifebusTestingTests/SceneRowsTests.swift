import Glibc
import Lifebus
import LifebusLifecycle
import LifebusTesting
import LifecycleContract
import Testing

/// Every scene row of `Protocol/lifecycle.md` (S01…, `LifecycleTable.sceneRows`) but those the kit has no verb for
/// (`notInKit`), through `LifebusTestBus` under every profile each applies to: in memory (the exact journal order)
/// and on the live broker (each app's, each scene's, and the starts' and kills' lines in order; the journal's
/// protected-data, push and run lines are not on the kit's timeline: `kitShows`). Apps are launched with a scene
/// delegate (scene apps) or a delegate, in the test's process — but live, an app the row's broker kills or starts (a
/// `kill X` or `start X` line, or a kill in its setup: S02, S23, S25, S30 under ios27, S40, S45) is an installed
/// `lifebus subscribe` process of its own, as a kill of an in-process app would hit the test's process; in memory the
/// transport ends and starts the in-process app as the supervisor would its process. The row's transitions (a
/// scene's as `A/1 callback from→to outcome`), starts (`start A`), kills (`kill A system`), refusals, app states,
/// scene states and kept payloads (`A.s1=2:foregroundActive+saved`) must be the row's.
@Suite("Protocol/lifecycle.md's scene rows through LifebusTesting", .hangGuard)
@MainActor
struct SceneRowsTests {
    /// A delegate that answers every callback at once.
    final class Answering: ApplicationDelegate {}

    /// A scene delegate that answers at once and keeps `payload` as each scene's restoration payload.
    final class Scenes: SceneDelegate {
        var payload: String?

        func stateRestorationActivity(for scene: Scene) async -> String? { payload }
    }

    /// The scene rows the kit has no verb for, and why; the core's `LifecycleTableTests` and the integration
    /// `RowRunner` run them.
    nonisolated static let notInKit: [String: String] = [
        "S46": "an app's process connecting on its own behind the lock: the kit starts an app that ran before by a "
            + "launch, refused while locked",
        "S51": "a launch whose didFinishLaunching is held while it registers a task: the kit's scene rows have no "
            + "verb for that (BackgroundLaunchSceneKitTests shows the unlock's hand-over to a running app)",
    ]

    @Test("a scene row behaves as specified", arguments: LifecycleTable.sceneRows, Profile.allCases)
    func row(_ row: Row, _ profile: Profile) async throws {
        guard let expected = row.expected[profile] else {
            #expect(row.inapplicable[profile] != nil, "row \(row.id) has no expectation for \(profile)")
            return
        }
        guard Self.notInKit[row.id] == nil else { return }
        try await play(row, profile, on: .inMemory, expecting: expected, exactOrder: true)
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        try await play(row, profile, on: .live, expecting: expected, exactOrder: false, folder: folder)
    }

    /// The apps of a row being played, and their scene delegates; live, the folder of the manifests of the apps
    /// installed as processes (`processApps`).
    private struct Stage {
        var apps: [AppID: LifebusTestApp] = [:]
        var scenes: [AppID: Scenes] = [:]
        var folder: String?
        var processApps: Set<AppID> = []
        /// The payload each app answers `stateRestorationActivity` with (the row's `restores` steps).
        var payloads: [AppID: String] = [:]
    }

    /// The apps of `row` the broker kills or starts under `profile`: `kill X`/`start X` lines in its expectation,
    /// or an app its setup terminates or jetsams (which the broker kills once it is suspended).
    nonisolated static func processApps(_ row: Row, _ profile: Profile) -> Set<AppID> {
        var apps = Set((row.expected[profile]?.journal ?? []).compactMap { line -> AppID? in
            let words = line.split(separator: " ")
            guard words.count >= 2, words[0] == "kill" || words[0] == "start" else { return nil }
            return AppID(String(words[1]))
        })
        for step in row.setup {
            if case .fire(.terminate(let app, _)) = step { apps.insert(app) }
        }
        return apps
    }

    private func play(
        _ row: Row, _ profile: Profile, on transport: LifebusTestBus.Transport, expecting expected: Expected,
        exactOrder: Bool, folder: String? = nil
    ) async throws {
        let bus = try await LifebusTestBus(
            transport, profile: profile, knobs: row.knobs)
        var stage = Stage(folder: folder, processApps: folder == nil ? [] : Self.processApps(row, profile))
        for case .restores(let id, let payload) in row.setup + row.steps { stage.payloads[id] = payload }
        for step in row.setup { _ = try await run(step, on: bus, stage: &stage) }
        var transitions: [String] = []
        for step in row.steps {
            let start = bus.timeline.entries.count
            let rejection = try await run(step, on: bus, stage: &stage)
            var entries = Array(bus.timeline.entries.dropFirst(start))
            if case .connect(let id, _) = step, stage.processApps.contains(id) {
                entries.removeAll { $0 == .started(app: id) }  // the start of the process a connect stands for
            }
            transitions += entries.compactMap(Self.line)
            transitions += rejection.map { ["reject \($0.rawValue)"] } ?? []
        }
        let place = "\(row.id) \(profile) \(exactOrder ? "in memory" : "live")"
        let journal = expected.journal.filter(Self.kitShows)
        if exactOrder {
            #expect(transitions == journal, "\(place)")
        } else {
            #expect(Self.byLane(transitions) == Self.byLane(journal), "\(place)")
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
    /// `A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok`), a process's start (`start A`) or kill
    /// (`kill A jetsam`); `nil` for a mark.
    nonisolated static func line(_ entry: BusTimeline.Entry) -> String? {
        switch entry {
        case .transition(let app, let callback, let from, let to, let outcome):
            "\(app) \(callback?.rawValue ?? "-") \(from)→\(to) \(outcome)"
        case .sceneTransition(let app, let scene, _, let callback, let from, let to, let outcome):
            "\(app)/\(scene.number) \(callback?.rawValue ?? "-") \(from)→\(to) \(outcome)"
        case .started(let app):
            "start \(app)"
        case .killed(let app, let reason):
            "kill \(app) \(reason.rawValue)"
        case .mark:
            nil
        }
    }

    /// Whether the kit's timeline shows a row's journal line: it holds transitions, starts and kills, not the
    /// journal's protected-data, push and run records (`protected data available`, `push A delivered`,
    /// `launch A didFinishLaunching remoteNotification`).
    nonisolated static func kitShows(_ line: String) -> Bool {
        !["protected data ", "push ", "launch "].contains { line.hasPrefix($0) }
    }

    /// The lines grouped by lane (the first word: an app, or one of its scenes), each lane's in order.
    private static func byLane(_ lines: [String]) -> [String: [String]] {
        Dictionary(grouping: lines) { String($0.prefix { $0 != " " }) }
    }

    /// Runs `step`; returns why the device refused it, if it did (an event, or a scene app's hello).
    private func run(_ step: Step, on bus: LifebusTestBus, stage: inout Stage) async throws -> RejectionReason? {
        switch step {
        case .connect(let id, let flags) where stage.processApps.contains(id):
            return try await launchProcess(id, flags, on: bus, stage: &stage)
        case .connect(let id, let flags):
            // S31 is the broker's refusal: the app does not fall back to the app-delegate life cycle here.
            let options = ApplicationOptions(
                exitsOnSuspend: flags.exitsOnSuspend, backgroundModes: flags.backgroundModes,
                launchInBackground: flags.launchInBackground, supportsMultipleScenes: flags.supportsMultipleScenes,
                fallsBackFromScenes: false, destructionConditions: flags.destructionConditions
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
        case .restores(let id, _) where stage.processApps.contains(id):
            break  // its process was installed answering with the payload (`launchProcess`)
        case .restores(let id, let payload):
            try #require(stage.scenes[id]).payload = payload
        case .elapse(let duration):
            try await bus.advance(by: duration)
        default:
            Issue.record("the kit's scene rows have no verb for \(step)")
        }
        return nil
    }

    /// Live: installs the app `id` as a `lifebus subscribe` process with the row's flags (and the payload of the
    /// row's `restores` step for it) and launches it. A launch the broker ends by killing the app (an app-delegate
    /// app under ios27: S30) is no refusal — the row records the kill — so it returns none; the app is then not on
    /// the stage, its state checked by the row's transitions alone.
    private func launchProcess(
        _ id: AppID, _ flags: AppFlags, on bus: LifebusTestBus, stage: inout Stage
    ) async throws -> RejectionReason? {
        let folder = try #require(stage.folder)
        var arguments = ["subscribe", "--id", id.rawValue]
        if flags.adoptsScenes { arguments.append("--scenes") }
        if flags.supportsMultipleScenes { arguments.append("--multiple-scenes") }
        if !flags.destructionConditions.isEmpty {
            arguments += ["--destruction-conditions", flags.destructionConditions.names.joined(separator: ",")]
        }
        if let payload = stage.payloads[id] { arguments += ["--restoration", payload] }
        let manifest: JSONValue = .object([
            "id": .string(id.rawValue),
            "executable": .string(TestMachine.productsFolder + "/lifebus"),
            "arguments": .array(arguments.map(JSONValue.string)),
            "backgroundModes": .array(flags.backgroundModes.sorted().map(JSONValue.string)),
            "exitsOnSuspend": .bool(flags.exitsOnSuspend),
            "launchInBackground": .bool(flags.launchInBackground),
        ])
        let path = "\(folder)/\(id).json"
        TestMachine.write(manifest.jsonText, to: path)
        try await bus.install(manifest: path)
        do {
            stage.apps[id] = try await bus.launch(id)
        } catch where "\(error)".contains(KillReason.sceneLifecycleRequired.rawValue) {
            return nil
        }
        return nil
    }
}
