import LifebusTesting
import Testing

/// The kit's background life (`runBackgroundTask`, `push`, `lock`/`unlock`, `isProtectedDataAvailable`,
/// `expect(_:task:outcome:)`) telling issue 28's two stories, in memory and on the live broker. In memory the apps
/// are in-process delegates; live they are `FeedReader` processes the broker starts (a kill of an in-process app would
/// hit the test's own process), as `Examples/manifests/feedreader*.json` run it.
@Suite(.hangGuard)
@MainActor
struct BackgroundKitTests {
    /// Where a test runs.
    enum Place: String, CaseIterable, Sendable {
        case inMemory
        case live

        var transport: LifebusTestBus.Transport { self == .inMemory ? .inMemory : .live }
    }

    nonisolated static let id: AppID = "com.example.FeedReader"
    nonisolated static let refresh = "com.example.FeedReader.refresh"

    /// FeedReader in a delegate: registers and submits its refresh task while it launches (to begin 15 minutes
    /// later), completes it when it runs unless it `forgetsCompletion`; on a silent push writes its draft to a
    /// protected file and marks `draft-saved`, or `draft-lost` when the write fails.
    final class Reader: ApplicationDelegate {
        let forgetsCompletion: Bool
        let draftPath: String

        init(forgetsCompletion: Bool = false, draftPath: String = "/dev/null") {
            self.forgetsCompletion = forgetsCompletion
            self.draftPath = draftPath
        }

        func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
            try? await application.taskScheduler.register(identifier: BackgroundKitTests.refresh) { task in
                guard !self.forgetsCompletion else { return }
                Task { try? await task.setTaskCompleted(success: true) }
            }
            try? await application.taskScheduler.submit(.init(
                identifier: BackgroundKitTests.refresh, kind: .appRefresh, earliestBeginAfter: .seconds(900)))
        }

        func didReceiveRemoteNotification(_ application: Application, payload: String) async
            -> BackgroundFetchResult
        {
            do throws(ProtectedFileError) {
                try ProtectedFile(path: draftPath, protection: .complete, of: application).write("draft\n")
                try? await application.mark("draft-saved")
                return .newData
            } catch {
                try? await application.mark("draft-lost")
                return .failed
            }
        }
    }

    /// A bus of `profile` at `place` with FeedReader launched: in memory `delegate`, live the FeedReader executable
    /// with `arguments`, installed from a manifest in `folder` (which the caller removes).
    private func launched(
        at place: Place, delegate: Reader, arguments: [String], folder: String
    ) async throws -> (LifebusTestBus, LifebusTestApp) {
        let bus = try await LifebusTestBus(place.transport, profile: .ios13)
        guard place == .live else {
            var options = ApplicationOptions()
            options.permittedTaskIdentifiers = [Self.refresh]
            return (bus, try await bus.launch(Self.id, delegate: delegate, options: options))
        }
        let quoted = (arguments + ["--state-file", folder + "/draft"]).map { "\"\($0)\"" }.joined(separator: ", ")
        TestMachine.write(
            """
            {"id": "\(Self.id)", "executable": "\(TestMachine.productsFolder)/FeedReader",
             "arguments": [\(quoted)],
             "backgroundTaskIdentifiers": ["\(Self.refresh)"]}
            """, to: folder + "/app.json")
        return (bus, try await bus.launch(try await bus.install(manifest: folder + "/app.json")))
    }

    @Test(arguments: Place.allCases)
    func aRefreshTaskThatForgetsSetTaskCompletedIsKilledAt30VirtualSeconds(_ place: Place) async throws {
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        let (bus, app) = try await launched(
            at: place, delegate: Reader(forgetsCompletion: true), arguments: ["--forgets-completion"], folder: folder)
        try await bus.fire(.home)
        try await bus.runBackgroundTask(app, Self.refresh)
        try await bus.expect(app, task: Self.refresh, outcome: .running)
        try await bus.advance(by: .seconds(29))
        try await bus.expect(app, state: .background)
        try await bus.advance(by: .seconds(1))
        try await bus.expect(app, task: Self.refresh, outcome: .killed)
        try await bus.expect(app, state: .notRunning)
        try await bus.expect(app, outcome: .killed(.backgroundTaskExpired))
        try await withKnownIssue {
            try await bus.expect(app, task: Self.refresh, outcome: .completed, within: .milliseconds(200))
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("\(Self.id)'s task \(Self.refresh) ended killed, expected completed")
                && text.contains("expired")
        }
        await bus.shutdown()
    }

    @Test func aRefreshTaskCompletedInTimeEndsCompleted() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios13)
        var options = ApplicationOptions()
        options.permittedTaskIdentifiers = [Self.refresh]
        let app = try await bus.launch(Self.id, delegate: Reader(), options: options)
        try await withKnownIssue {
            try await bus.expect(app, task: Self.refresh, outcome: .completed)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("task \(Self.refresh) never ran, expected completed")
        }
        try await bus.fire(.home)
        try await bus.runBackgroundTask(app, Self.refresh)
        try await bus.advance(by: .seconds(1))
        try await bus.expect(app, task: Self.refresh, outcome: .completed)
        try await bus.advance(by: .seconds(60))
        try await bus.expect(app, state: .suspended)
        await bus.shutdown()
    }

    @Test(arguments: Place.allCases)
    func aDraftWrittenByAPush15SecondsAfterTheLockIsLost(_ place: Place) async throws {
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        let (bus, app) = try await launched(
            at: place, delegate: Reader(draftPath: folder + "/draft"), arguments: [], folder: folder)
        #expect(try await bus.isProtectedDataAvailable())
        try await bus.lock()
        try await bus.advance(by: .seconds(9))
        #expect(try await bus.isProtectedDataAvailable())
        try await bus.advance(by: .seconds(6))
        #expect(try await bus.isProtectedDataAvailable() == false)
        try await bus.push(app)
        try await bus.expect(app, mark: "draft-lost")
        try await bus.unlock()
        #expect(try await bus.isProtectedDataAvailable())
        try await bus.push(app)
        try await bus.expect(app, mark: "draft-saved")
        await bus.shutdown()
    }
}
