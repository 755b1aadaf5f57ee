import Lifebus
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The SDK's `BGTaskScheduler` and the background callbacks (`Protocol/README.md` §10.2): registration and
/// submission reach the broker, `performBackgroundTask` calls the launch handler, `backgroundTaskWillExpire` its
/// expiration handler, `setTaskCompleted` reaches the broker, and a silent push's answer carries the fetch result.
@MainActor
@Suite(.hangGuard)
struct BackgroundTaskSchedulerTests {
    static let identifier = "com.example.Test.refresh"

    private func send(
        _ harness: AppHarness, _ callback: LifecycleCallback, id: Int64, _ background: CallbackBackground
    ) async -> Result<JSONValue, RPCError> {
        await harness.broker.send(CallbackParams(
            callbackID: id, callback: callback, state: .background, budgetMs: 10_000, background: background))
    }

    @Test func aRegisteredHandlerRunsWhenItsTaskIsPerformedAndItsCompletionReachesTheBroker() async throws {
        let harness = try await AppHarness.launch()
        var handed: [(String, BackgroundTaskKind)] = []
        harness.delegate.hook = { callback, application in
            guard callback == .didFinishLaunching else { return }
            try? await application.taskScheduler.register(identifier: Self.identifier) { task in
                handed.append((task.identifier, task.kind))
                Task { try? await task.setTaskCompleted(success: true) }
            }
            try? await application.taskScheduler.submit(.init(
                identifier: Self.identifier, kind: .appRefresh, earliestBeginAfter: .seconds(900)))
        }
        _ = try await harness.send(.didFinishLaunching, state: .background).get()
        let register = try #require(await harness.broker.nextRequest())
        #expect(register.method == LifebusMethod.registerBackgroundTask)
        #expect(try RegisterBackgroundTaskParams(json: register.params).identifier == Self.identifier)
        let submit = try #require(await harness.broker.nextRequest())
        #expect(try SubmitBackgroundTaskParams(json: submit.params) == SubmitBackgroundTaskParams(
            identifier: Self.identifier, kind: .appRefresh, earliestBeginAfter: .seconds(900)))

        _ = try await send(harness, .performBackgroundTask, id: 2,
                           CallbackBackground(identifier: Self.identifier, kind: .appRefresh)).get()
        #expect(handed.map(\.0) == [Self.identifier] && handed.map(\.1) == [.appRefresh])
        let completed = try #require(await harness.broker.nextRequest())
        #expect(completed.method == LifebusMethod.setTaskCompleted)
        #expect(try SetTaskCompletedParams(json: completed.params)
            == SetTaskCompletedParams(identifier: Self.identifier, success: true))
        try await harness.terminate()
    }

    @Test func backgroundTaskWillExpireRunsTheTasksExpirationHandlerBeforeItIsAnswered() async throws {
        let harness = try await AppHarness.launch()
        var expired = 0
        harness.delegate.hook = { callback, application in
            guard callback == .didFinishLaunching else { return }
            try? await application.taskScheduler.register(identifier: Self.identifier) { task in
                task.expirationHandler = { expired += 1 }
            }
        }
        _ = try await harness.send(.didFinishLaunching, state: .background).get()
        _ = await harness.broker.nextRequest()
        _ = try await send(harness, .performBackgroundTask, id: 2,
                           CallbackBackground(identifier: Self.identifier, kind: .processing)).get()
        #expect(expired == 0)
        _ = try await send(harness, .backgroundTaskWillExpire, id: 3, CallbackBackground(identifier: Self.identifier))
            .get()
        #expect(expired == 1)
        try await harness.terminate()
    }

    @Test func aSilentPushIsAnsweredWithTheDelegatesFetchResultAndTheLaunchSaysWhy() async throws {
        let delegate = PushDelegate()
        let broker = try await FakeBroker.start(path: FakeBroker.temporaryPath())
        let application = Application(id: "com.example.Push", options: ApplicationOptions(socketPath: broker.path))
        let running = Task { @MainActor in await application.run(delegate: delegate) }
        _ = await broker.nextRequest()  // hello
        _ = try await broker.send(CallbackParams(
            callbackID: 1, callback: .didFinishLaunching, state: .background, budgetMs: 20_000,
            background: CallbackBackground(launchReason: .remoteNotification))).get()
        #expect(delegate.launchReasons == [.remoteNotification])
        let answer = try await broker.send(CallbackParams(
            callbackID: 2, callback: .didReceiveRemoteNotification, state: .background, budgetMs: 30_000,
            background: CallbackBackground(payload: #"{"feed":7}"#))).get()
        #expect(try CallbackAnswer(json: answer).result == .newData)
        #expect(delegate.payloads == [#"{"feed":7}"#])
        _ = try await broker.send(CallbackParams(
            callbackID: 3, callback: .willTerminate, state: .notRunning, budgetMs: 5000)).get()
        await running.value
        await broker.stop()
    }
}

/// Answers silent pushes with `newData` and keeps what it was handed.
@MainActor
private final class PushDelegate: ApplicationDelegate {
    var payloads: [String] = []
    var launchReasons: [LaunchReason] = []

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        launchReasons.append(options.launchReason)
    }

    func didReceiveRemoteNotification(_ application: Application, payload: String) async -> BackgroundFetchResult {
        payloads.append(payload)
        return .newData
    }
}
