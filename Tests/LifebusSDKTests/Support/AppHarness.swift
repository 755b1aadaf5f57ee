import Lifebus
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// A delegate that records each callback and runs an optional hook inside it.
@MainActor
final class RecordingDelegate: ApplicationDelegate {
    var calls: [LifecycleCallback] = []
    var launchOptions: [LaunchOptions] = []
    var hook: (@MainActor (LifecycleCallback, Application) async -> Void)?

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        launchOptions.append(options)
        await record(.didFinishLaunching, application)
    }
    func didBecomeActive(_ application: Application) async { await record(.didBecomeActive, application) }
    func willResignActive(_ application: Application) async { await record(.willResignActive, application) }
    func didEnterBackground(_ application: Application) async { await record(.didEnterBackground, application) }
    func willEnterForeground(_ application: Application) async { await record(.willEnterForeground, application) }
    func willTerminate(_ application: Application) async { await record(.willTerminate, application) }
    func didReceiveMemoryWarning(_ application: Application) async {
        await record(.didReceiveMemoryWarning, application)
    }
    func protectedDataWillBecomeUnavailable(_ application: Application) async {
        await record(.protectedDataWillBecomeUnavailable, application)
    }
    func protectedDataDidBecomeAvailable(_ application: Application) async {
        await record(.protectedDataDidBecomeAvailable, application)
    }

    private func record(_ callback: LifecycleCallback, _ application: Application) async {
        calls.append(callback)
        await hook?(callback, application)
    }
}

/// One app run against a `FakeBroker`: starts both, waits for the app's hello, sends callbacks, and terminates the
/// app (its `run` returns) and stops the broker at the end, so every loop is closed.
@MainActor
final class AppHarness {
    let broker: FakeBroker
    let application: Application
    let delegate: RecordingDelegate
    let hello: HelloParams
    private let running: Task<Void, Never>
    private var nextCallbackID: Int64 = 1

    private init(broker: FakeBroker, application: Application, delegate: RecordingDelegate, hello: HelloParams,
                 running: Task<Void, Never>) {
        self.broker = broker
        self.application = application
        self.delegate = delegate
        self.hello = hello
        self.running = running
    }

    static func launch(
        options: ApplicationOptions = ApplicationOptions(), sceneDelegate: (any SceneDelegate)? = nil
    ) async throws -> AppHarness {
        let broker = try await FakeBroker.start(path: FakeBroker.temporaryPath())
        var options = options
        options.socketPath = broker.path
        let application = Application(id: "com.example.Test", options: options)
        let delegate = RecordingDelegate()
        let running = Task { @MainActor in await application.run(delegate: delegate, sceneDelegate: sceneDelegate) }
        let request = try #require(await broker.nextRequest())
        #expect(request.method == LifebusMethod.hello)
        let hello = try HelloParams(json: request.params)
        return AppHarness(broker: broker, application: application, delegate: delegate, hello: hello,
                          running: running)
    }

    /// Sends one callback and returns the app's answer.
    func send(_ callback: LifecycleCallback, state: LifecycleState, cause: EventCause? = nil)
        async -> Result<JSONValue, RPCError>
    {
        let params = CallbackParams(callbackID: nextCallbackID, callback: callback, state: state, budgetMs: 5000,
                                    cause: cause)
        nextCallbackID += 1
        return await broker.send(params)
    }

    /// Sends one scene callback (or `didDiscardSceneSessions` with `sessions`) and returns the app's answer.
    func send(
        _ callback: LifecycleCallback, state: LifecycleState, scene: CallbackScene?, sessions: [SceneSessionID] = []
    ) async -> Result<JSONValue, RPCError> {
        let params = CallbackParams(callbackID: nextCallbackID, callback: callback, state: state, budgetMs: 10_000,
                                    scene: scene, sessions: sessions)
        nextCallbackID += 1
        return await broker.send(params)
    }

    /// Sends `willTerminate`, waits for `run` to return (the SDK closed its loop), then stops the broker.
    func terminate() async throws {
        let answer = await send(.willTerminate, state: .background)
        _ = try answer.get()
        await running.value
        await broker.stop()
    }
}
