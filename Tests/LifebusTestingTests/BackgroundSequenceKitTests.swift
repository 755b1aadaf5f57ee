import LifebusTesting
import Testing

/// Apple's background execution sequence through the SDK (`Protocol/lifecycle.md`, "Background execution and data
/// protection", Running): an app-delegate app resumed in the background for an event runs its delegate's
/// `didEnterBackground` before the event's callback — the SDK's own `didEnterBackground` handling (the restoration
/// state it saves there) included — in memory, on the real core.
@Suite(.hangGuard)
@MainActor
struct BackgroundSequenceKitTests {
    nonisolated static let id: AppID = "com.example.Feed"
    nonisolated static let refresh = "com.example.Feed.refresh"

    /// Keeps the order of the delegate methods the SDK ran; registers and submits `refresh` while it launches and
    /// completes it when it runs; answers a push `newData`.
    final class Recorder: ApplicationDelegate {
        var calls: [String] = []

        func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
            calls.append("didFinishLaunching")
            try? await application.taskScheduler.register(identifier: BackgroundSequenceKitTests.refresh) { task in
                self.calls.append("refresh")
                Task { try? await task.setTaskCompleted(success: true) }
            }
            try? await application.taskScheduler.submit(.init(identifier: BackgroundSequenceKitTests.refresh,
                                                                kind: .appRefresh))
        }

        func didEnterBackground(_ application: Application) async {
            calls.append("didEnterBackground")
        }

        func didReceiveRemoteNotification(_ application: Application, payload: String) async
            -> BackgroundFetchResult
        {
            calls.append("push")
            return .newData
        }

        func restorationState(_ application: Application) -> String? { #"{"draft":1}"# }
    }

    /// An `ios13` bus with the recorder launched and sent home (suspended).
    private func suspended(_ recorder: Recorder) async throws -> (LifebusTestBus, LifebusTestApp) {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios13)
        var options = ApplicationOptions()
        options.permittedTaskIdentifiers = [Self.refresh]
        let app = try await bus.launch(Self.id, delegate: recorder, options: options)
        try await bus.fire(.home)
        try await bus.expect(app, state: .suspended)
        return (bus, app)
    }

    @Test func anAppResumedByASilentPushRunsDidEnterBackgroundBeforeThePush() async throws {
        let recorder = Recorder()
        let (bus, app) = try await suspended(recorder)
        recorder.calls.removeAll()
        try await bus.push(app)
        #expect(recorder.calls == ["didEnterBackground", "push"])
        try await bus.expect(app, state: .suspended)
        await bus.shutdown()
    }

    @Test func anAppResumedForATaskRunsDidEnterBackgroundBeforeTheLaunchHandler() async throws {
        let recorder = Recorder()
        let (bus, app) = try await suspended(recorder)
        recorder.calls.removeAll()
        try await bus.runBackgroundTask(app, Self.refresh)
        try await bus.advance(by: .seconds(1))
        #expect(recorder.calls == ["didEnterBackground", "refresh"])
        try await bus.expect(app, task: Self.refresh, outcome: .completed)
        await bus.shutdown()
    }
}
