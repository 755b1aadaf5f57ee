import Foundation
import LifebusTesting
import Testing

/// The README's "API at a glance" table, compiled and run: every spelling of its middle column is used below as
/// written (outside comments), on an in-memory bus, so a renamed API fails the build of this file, and a spelling the
/// table gains without this file using it fails `theReadmeTableSpellsOnlyWhatThisFileUses`.
@Suite(.hangGuard)
@MainActor
struct APIAtAGlanceTests {
    /// Marks (with data of every JSON type) when it enters the background; keeps a scene's note number with its
    /// session; collects the URLs its scenes open. Owns what it was told. Bound to the main actor.
    @MainActor final class Notes: ApplicationDelegate, SceneDelegate {
        var markFailures: [String] = []
        var urls: [String] = []

        func didEnterBackground(_ application: Application) async {
            do {
                try await application.mark("state-saved")
                try await application.mark("saved", data: ["count": .integer(3)])
                let details: JSONObject = [
                    "count": JSONValue.integer(3), "ratio": .double(0.5), "title": .string("Groceries"),
                    "pinned": .bool(true), "tags": .array([.string("home")]), "owner": .object(["id": .integer(7)]),
                    "due": .null,
                ]
                try await application.mark("details", data: details)
            } catch {
                markFailures.append("\(error)")
            }
        }

        func stateRestorationActivity(for scene: Scene) async -> String? { "{\"note\":\(scene.id.number)}" }

        func scene(_ scene: Scene, openURLContexts urls: [String]) async { self.urls += urls }
    }

    /// Each event of the table's first row, after the events that make it legal on a device whose front app is `app`.
    static func events(_ app: LifebusTestApp) -> [(event: ControllerEvent, after: [ControllerEvent])] {
        [
            (.call(.ring), []), (.call(.answer), [.call(.ring)]), (.call(.decline), [.call(.ring)]),
            (.call(.end), [.call(.ring), .call(.answer)]),
            (.sms(.show), []), (.sms(.open), [.sms(.show)]), (.sms(.dismiss), [.sms(.show)]), (.sms(.banner), []),
            (.calendar(.show), []), (.sleep, []), (.wake, [.sleep]), (.home, []),
            (.memoryWarning(.warning), []), (.memoryWarning(.critical), []),
            (.launch(app.id), [.home]), (.activate(app.id), [.home]), (.terminate(app.id, byUser: true), []),
            (.reset, []),
        ]
    }

    @Test func everyEventOfTheTableIsCarriedOutWhereItIsLegal() async throws {
        var fired = 0
        for index in 0... {
            let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
            let app = try await bus.launch("com.example.Notes", delegate: Notes())
            let events = Self.events(app)
            guard index < events.count else { break }
            for step in events[index].after {
                try await bus.fire(step)
            }
            try await bus.fire(events[index].event)
            await bus.shutdown()
            fired += 1
        }
        #expect(fired == 18, "each event of the table fired, on a device of its own")
    }

    @Test func theExpectationsStatesMarksAndHeldAppsOfTheTable() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let notes = Notes()
        var app = try await bus.launch("com.example.Notes", delegate: notes)
        try await bus.expect(app, state: .active)
        try bus.hold(app)
        let ring = try await bus.fire(.call(.ring), waiting: false)
        try await bus.release(app)
        try await ring.completion()
        try await bus.expect(app, state: .inactive)
        try await bus.fire(.call(.answer))
        try await bus.expect(app, callbacks: [.willResignActive, .didEnterBackground])
        try await bus.expect(app, mark: "state-saved")
        try await bus.expect(app, state: .suspended)
        #expect(bus.timeline.marks(of: app.id) == ["state-saved", "saved", "details"])
        #expect(notes.markFailures.isEmpty)
        try await bus.expect(app, callback: .didEnterBackground, outcome: .ok)
        try await bus.expect(app, callback: .didEnterBackground, withinShareOfBudget: 0.5)

        try await bus.fire(.call(.end))
        try await bus.fire(.home)
        try await bus.fire(.memoryWarning(.critical))
        try await bus.expect(app, outcome: .killed(.jetsam))
        try await bus.expect(app, state: .notRunning)
        try await bus.fire(.launch(app.id))
        try await bus.expect(app, state: .active)
        try await bus.crash(app)
        try await bus.expect(app, state: .notRunning)
        app = try await bus.launch("com.example.Notes", delegate: notes)
        _ = try await bus.beginBackgroundTask(in: app)
        try await bus.fire(.home)
        try await bus.expect(app, state: .background)
        try await bus.advance(by: .seconds(180))
        try await bus.expect(app, outcome: .killed(.backgroundTaskExpired))
        try await bus.expect(app, state: .notRunning)
    }

    @Test func theScenesOfTheTable() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios17)
        let notes = Notes()
        let app = try await bus.launch("com.example.Notes", delegate: notes, sceneDelegate: notes)
        let scene = SceneID(1)
        try await bus.expect(app, scene: scene, state: .foregroundActive)
        try await bus.fire(.home)
        try await bus.expect(app, scene: scene, callbacks: [.sceneWillResignActive, .sceneDidEnterBackground])
        #expect(try await bus.scenePhase(of: app) == .background)
        try await bus.reclaim(app, scene: scene)
        let session = try #require(try await bus.savedSessions(of: app).first)
        let back = try await bus.reconnect(app, session: session)
        try await bus.expect(app, scene: back, state: .foregroundActive)
        try await bus.expect(app, phase: .active)
        try await bus.fire(.launch(app.id, url: "notes://7"))
        try await bus.fire(.launch(app.id, push: "{}"))
        #expect(notes.urls == ["notes://7"])
    }

    @Test func theWindowsOfTheTable() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios17)
        let notes = Notes()
        let app = try await bus.launch(
            "com.example.Notes", delegate: notes, sceneDelegate: notes,
            options: ApplicationOptions(supportsMultipleScenes: true))
        let scene = SceneID(1)
        let second = try await bus.openScene(app)
        try await bus.expect(app, scene: scene, phase: .inactive)
        try await bus.expect(app, scene: second, phase: .active)
        try await bus.focus(app, scene: scene)
        try await bus.expect(app, scene: scene, phase: .active)
        try await bus.closeScene(app, scene)
        try await bus.expect(app, scene: scene, state: .unattached)
        try await bus.expect(app, scene: second, state: .foregroundActive)
    }

    @Test func theReadmeTableSpellsOnlyWhatThisFileUses() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        // This file's code without comments or whitespace: a spelling may be wrapped over lines, as `swift format`
        // leaves it, but not only mentioned in a comment.
        let code = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            .joined().filter { !$0.isWhitespace }
        let spellings = Self.spellings(inTableOf: readme)
        #expect(spellings.count > 40, "the README's API table is found")
        for spelling in spellings {
            let used = code.contains(spelling.filter { !$0.isWhitespace })
            #expect(used, "README.md's API table spells `\(spelling)`, which this file does not use")
        }
    }

    /// The code spans of the middle column of the table under the README's "API at a glance" heading.
    static func spellings(inTableOf readme: String) -> [String] {
        let section = readme.components(separatedBy: "\n## API at a glance\n").dropFirst().first ?? ""
        let rows = section.components(separatedBy: "\n## ")[0].split(separator: "\n").filter { $0.hasPrefix("|") }
        return rows.dropFirst(2).flatMap { row -> [String] in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 2 else { return [] }
            return cells[2].split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
    }
}
