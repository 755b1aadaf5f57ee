import LifebusLifecycle
import LifebusTesting
import Testing

/// The kit on its in-memory transport: the reading a test uses, and the failure it reports.
@Suite(.hangGuard)
@MainActor
struct InMemoryBusTests {
    @Test func anAnsweredCallSendsTheFrontAppToTheBackgroundWhereItSavesItsState() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try await bus.expect(app, state: .active)
        try await bus.fire(.call(.ring))
        try await bus.expect(app, callbacks: [.willResignActive], within: .seconds(1))
        try await bus.fire(.call(.answer))
        try await bus.expect(app, callbacks: [.didEnterBackground], within: .seconds(1))
        try await bus.expect(app, mark: "state-saved")
        try await bus.expect(app, state: .suspended)
    }

    @Test func virtualTimeDecidesWhenABackgroundTaskRunsOut() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let uploader = UploaderDelegate()
        let app = try await bus.launch("com.example.Uploader", delegate: uploader)
        try await bus.fire(.home)
        try await bus.expect(app, callbacks: [.willResignActive, .didEnterBackground])
        try await bus.advance(by: .seconds(170))
        try await bus.expect(app, state: .background)
        #expect(uploader.expirations == 0)
        try await bus.advance(by: .seconds(20))
        #expect(uploader.expirations == 1)
        try await bus.expect(app, state: .notRunning)
        #expect(bus.timeline.entries(of: app.id).last
            == .transition(app: app.id, callback: nil, from: .background, to: .notRunning, outcome: .watchdog))
    }

    @Test func aWrongExpectationIsRecordedWithTheAppsTimeline() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try await bus.fire(.home)
        try await withKnownIssue {
            try await bus.expect(app, callbacks: [.willResignActive, .willTerminate])
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("~ willTerminate") && text.contains("didEnterBackground")
                && text.contains("last marks: state-saved") && text.contains("state: suspended")
        }
    }

    @Test func outsideASwiftTestingTestAFailedExpectationThrowsItsReport() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        // A detached task does not inherit `Test.current`, as an XCTest method has none.
        let thrown = await Task.detached { await Self.expectAMissingMark(on: bus, app) }.value
        let error = try #require(thrown)
        #expect("\(error)".contains("InMemoryBusTests.swift") && "\(error)".contains("did not mark \"never-made\""))
    }

    /// What `expect(_:mark:)` of a mark never made throws, if it throws.
    private static func expectAMissingMark(on bus: LifebusTestBus, _ app: LifebusTestApp) async -> String? {
        do {
            try await bus.expect(app, mark: "never-made")
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func theTimelineHoldsEveryTransitionAndMarkInOrder() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try await bus.fire(.home)
        #expect(bus.timeline.callbacks(of: app.id).suffix(2) == [.willResignActive, .didEnterBackground])
        #expect(bus.timeline.marks(of: app.id) == ["state-saved"])
    }
}
