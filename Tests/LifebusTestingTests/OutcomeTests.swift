import Glibc
import LifebusTesting
import Testing

/// `expect(_:scene:callback:outcome:)` and `expect(_:scene:callback:withinShareOfBudget:)`, each passing and
/// failing (the failure's report checked), in memory and on the live broker. An app the broker kills is, live, an
/// installed `lifebus subscribe` process (a kill of an in-process app would hit the test's own process); in memory,
/// an in-process delegate.
@Suite(.hangGuard)
@MainActor
struct OutcomeTests {
    /// Where a test runs.
    enum Place: String, CaseIterable, Sendable {
        case inMemory
        case live

        var transport: LifebusTestBus.Transport { self == .inMemory ? .inMemory : .live }
    }

    /// A delegate that answers every callback at once.
    final class Answering: ApplicationDelegate {}

    /// The app's id in these tests.
    nonisolated static let id: AppID = "com.example.Outcomes"

    /// A bus at `place` with the app launched and in front: in memory served by a delegate, live an installed
    /// `lifebus subscribe` (in `folder`, which the caller removes).
    private func launched(at place: Place, profile: Profile = .ios7, folder: String) async throws
        -> (LifebusTestBus, LifebusTestApp)
    {
        let bus = try await LifebusTestBus(place.transport, profile: profile)
        guard place == .live else { return (bus, try await bus.launch(Self.id, delegate: Answering())) }
        let lifebus = TestMachine.productsFolder + "/lifebus"
        TestMachine.write(
            """
            {"id": "\(Self.id)", "executable": "\(lifebus)", "arguments": ["subscribe", "--id", "\(Self.id)"]}
            """, to: folder + "/app.json")
        return (bus, try await bus.launch(try await bus.install(manifest: folder + "/app.json")))
    }

    @Test(arguments: Place.allCases)
    func theOutcomeOfTheLatestTransitionAndOfANamedCallback(_ place: Place) async throws {
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        let (bus, app) = try await launched(at: place, folder: folder)
        try await bus.fire(.home)
        try await bus.expect(app, outcome: .ok)
        try await bus.expect(app, callback: .didEnterBackground, outcome: .ok)
        try await bus.fire(.terminate(Self.id, byUser: true))
        try await bus.expect(app, state: .notRunning)
        try await bus.expect(app, outcome: .killed(.user))
        try await bus.expect(app, callback: .didEnterBackground, outcome: .ok)
        await bus.shutdown()
    }

    @Test(arguments: Place.allCases)
    func aWrongOutcomeIsReportedExpectedBesideRecorded(_ place: Place) async throws {
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        let (bus, app) = try await launched(at: place, folder: folder)
        try await bus.fire(.home)
        try await bus.fire(.terminate(Self.id, byUser: true))
        try await withKnownIssue {
            try await bus.expect(app, outcome: .killed(.jetsam), within: .milliseconds(200))
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("the latest transition of \(Self.id) ended killed(user), expected killed(jetsam)")
                && text.contains("~ - suspended→notRunning: killed(jetsam)  - suspended→notRunning: killed(user)")
                && text.contains("state: notRunning")
                && text.contains("\(Self.id) - suspended -> notRunning (killed)")
        }
        try await withKnownIssue {
            try await bus.expect(app, callback: .willTerminate, outcome: .ok, within: .milliseconds(200))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined()
                .contains("\(Self.id)'s willTerminate recorded no transition, expected one ending ok")
        }
        await bus.shutdown()
    }

    @Test(arguments: Place.allCases)
    func anAnswerWithinItsShareOfTheBudgetPassesAndOneOverItFailsWithBothFigures(_ place: Place) async throws {
        let bus = try await LifebusTestBus(place.transport, profile: .ios7)
        let app = try await bus.launch(Self.id, delegate: Answering())
        try await bus.expect(app, callback: .didBecomeActive, withinShareOfBudget: 0.5)
        try bus.hold(app)
        let ring = try await bus.fire(.call(.ring), waiting: false)
        try await bus.advance(by: .seconds(6))
        try await bus.release(app)
        try await ring.completion()
        try await bus.expect(app, callback: .willResignActive, withinShareOfBudget: 0.7)
        try await withKnownIssue {
            try await bus.expect(app, callback: .willResignActive, withinShareOfBudget: 0.5)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains(
                "\(Self.id)'s willResignActive answered in 6000 ms of its 10000 ms budget (60%), expected at most 50%")
                && text.contains("~ ≤ 5000 ms (50% of the budget)  6000 ms (60% of the budget)")
                && text.contains("timeline:")
        }
        await #expect(throws: LifebusTestBusError.self) {
            try await bus.expect(app, callback: .willResignActive, withinShareOfBudget: -1)
        }
        await bus.shutdown()
    }

    @Test(arguments: Place.allCases)
    func aSceneHasItsOutcomesItsShareOfBudgetAndItsPhase(_ place: Place) async throws {
        let bus = try await LifebusTestBus(place.transport, profile: .ios13)
        let windows = SceneBusTests.Windows()
        let app = try await bus.launch(Self.id, delegate: windows, sceneDelegate: windows)
        let first = SceneID(1)
        try await bus.expect(app, phase: .active)
        try await bus.fire(.home)
        try await bus.expect(app, scene: first, outcome: .ok)
        try await bus.expect(app, scene: first, callback: .sceneDidEnterBackground, outcome: .ok)
        try await bus.expect(app, scene: first, callback: .sceneDidEnterBackground, withinShareOfBudget: 0.1)
        try await bus.expect(app, scene: first, phase: .background)
        try await bus.expect(app, phase: .background)
        try await withKnownIssue {
            try await bus.expect(app, scene: SceneID(2), outcome: .ok, within: .milliseconds(200))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                "the latest transition of scene 2 of \(Self.id) recorded no transition, expected one ending ok")
        }
        try await withKnownIssue {
            try await bus.expect(app, scene: first, callback: .sceneDidEnterBackground, outcome: .late)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("scene 1 of \(Self.id)'s sceneDidEnterBackground ended ok, expected late")
                && text.contains("~ 1 sceneDidEnterBackground: late")
        }
        await bus.shutdown()
    }
}
