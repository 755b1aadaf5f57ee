import Lifebus
import LifebusLifecycle
import LifebusProtocol
import Testing

/// What a launch opens an app with (`Protocol/README.md` §10.3): `didFinishLaunching`'s launch options carry the URL
/// or the tapped notification, `openURL` calls `open(_:url:)` and `didReceiveNotificationResponse` the delegate's
/// method with the payload; each is answered once the method returned.
@MainActor
@Suite(.hangGuard)
struct OpenedTests {
    @Test func theLaunchOptionsTheURLAndTheTappedNotificationReachTheDelegate() async throws {
        let delegate = OpenedDelegate()
        let broker = try await FakeBroker.start(path: FakeBroker.temporaryPath())
        let application = Application(id: "com.example.Links", options: ApplicationOptions(socketPath: broker.path))
        let running = Task { @MainActor in await application.run(delegate: delegate) }
        _ = await broker.nextRequest()  // hello
        _ = try await broker.send(CallbackParams(
            callbackID: 1, callback: .didFinishLaunching, state: .inactive, budgetMs: 20_000,
            background: CallbackBackground(launchOptions: LaunchPayload(
                url: "notes://note/7", remoteNotification: #"{"aps":{}}"#)))).get()
        #expect(delegate.launchURLs == ["notes://note/7"])
        #expect(delegate.launchNotifications == [#"{"aps":{}}"#])
        _ = try await broker.send(CallbackParams(
            callbackID: 2, callback: .openURL, state: .active, budgetMs: 10_000,
            background: CallbackBackground(url: "notes://note/8"))).get()
        #expect(delegate.opened == ["notes://note/8"])
        _ = try await broker.send(CallbackParams(
            callbackID: 3, callback: .didReceiveNotificationResponse, state: .active, budgetMs: 10_000,
            background: CallbackBackground(payload: #"{"note":9}"#))).get()
        #expect(delegate.responses == [#"{"note":9}"#])
        _ = try await broker.send(CallbackParams(
            callbackID: 4, callback: .willTerminate, state: .notRunning, budgetMs: 5000)).get()
        await running.value
        await broker.stop()
    }

    @Test func aPlainLaunchHasNoURLAndNoNotification() {
        let options = LaunchOptions()
        #expect(options.url == nil && options.remoteNotification == nil)
    }
}

/// Keeps what each callback handed it.
@MainActor
private final class OpenedDelegate: ApplicationDelegate {
    var launchURLs: [String] = []
    var launchNotifications: [String] = []
    var opened: [String] = []
    var responses: [String] = []

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        if let url = options.url { launchURLs.append(url) }
        if let notification = options.remoteNotification { launchNotifications.append(notification) }
    }

    func open(_ application: Application, url: String) async {
        opened.append(url)
    }

    func didReceiveNotificationResponse(_ application: Application, payload: String) async {
        responses.append(payload)
    }
}
