import Lifebus
import LifebusProtocol
import Testing

/// The broker going away: the app keeps running, reconnects with backoff, says hello again and is launched again.
@MainActor
@Suite(.hangGuard)
struct ReconnectTests {
    @Test func theAppReconnectsAfterTheBrokerRestartsAndIsLaunchedAgain() async throws {
        let first = try await FakeBroker.start(path: FakeBroker.temporaryPath())
        let application = Application(id: "com.example.Reconnect", options: ApplicationOptions(
            socketPath: first.path, reconnectDelay: .milliseconds(5), maxReconnectDelay: .milliseconds(20)
        ))
        let delegate = RecordingDelegate()
        let running = Task { @MainActor in await application.run(delegate: delegate) }
        #expect(await first.nextRequest()?.method == LifebusMethod.hello)
        let launch = CallbackParams(callbackID: 1, callback: .didFinishLaunching, state: .inactive, budgetMs: 5000)
        _ = try await first.send(launch).get()
        #expect(application.state == .inactive)
        await first.stop()

        let second = try await FakeBroker.start(path: first.path)
        let hello = try #require(await second.nextRequest())
        #expect(hello.method == LifebusMethod.hello)
        #expect(try HelloParams(json: hello.params).appID == "com.example.Reconnect")
        #expect(application.state == .notRunning)
        _ = try await second.send(launch).get()
        #expect(delegate.calls == [.didFinishLaunching, .didFinishLaunching])

        let terminate = CallbackParams(callbackID: 2, callback: .willTerminate, state: .background, budgetMs: 5000)
        _ = try await second.send(terminate).get()
        await running.value
        await second.stop()
    }

    @Test func anAppStartedBeforeTheBrokerConnectsWhenItComes() async throws {
        let path = FakeBroker.temporaryPath()
        let application = Application(id: "com.example.Early", options: ApplicationOptions(
            socketPath: path, reconnectDelay: .milliseconds(5), maxReconnectDelay: .milliseconds(20)
        ))
        let running = Task { @MainActor in await application.run(delegate: RecordingDelegate()) }
        let broker = try await FakeBroker.start(path: path)
        #expect(await broker.nextRequest()?.method == LifebusMethod.hello)
        let terminate = CallbackParams(callbackID: 1, callback: .willTerminate, state: .background, budgetMs: 5000)
        _ = try await broker.send(terminate).get()
        await running.value
        await broker.stop()
    }
}
