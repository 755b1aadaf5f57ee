import Lifebus
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// A visible notification in the foreground (`Protocol/README.md` §10.4): `willPresentNotification` calls the
/// delegate's method with the payload, and the answer carries the options it returned as `presentation`; the default
/// method returns none, which the answer leaves out (the broker reads no options as none).
@MainActor
@Suite(.hangGuard)
struct WillPresentTests {
    @Test func theAnswerCarriesTheOptionsTheDelegateReturned() async throws {
        let delegate = Presenting(options: [.banner, .sound])
        let answer = try await answer(of: delegate)
        #expect(delegate.payloads == [#"{"aps":{"alert":"Hi"}}"#])
        #expect(answer["presentation"] == .array(["banner", "sound"]), "\(answer)")
        #expect(try CallbackAnswer(json: answer).presentation == [.banner, .sound])
    }

    @Test func theDefaultMethodPresentsNothing() async throws {
        let answer = try await answer(of: Silent())
        #expect(answer["presentation"] == nil, "\(answer)")
        #expect(try CallbackAnswer(json: answer).presentation == nil)
    }

    /// The answer of `delegate`'s app to one `willPresentNotification`, the app terminated after it.
    private func answer(of delegate: some ApplicationDelegate) async throws -> JSONValue {
        let broker = try await FakeBroker.start(path: FakeBroker.temporaryPath())
        let application = Application(id: "com.example.Chat", options: ApplicationOptions(socketPath: broker.path))
        let running = Task { @MainActor in await application.run(delegate: delegate) }
        _ = await broker.nextRequest()  // hello
        let answer = await broker.send(CallbackParams(
            callbackID: 1, callback: .willPresentNotification, state: .active, budgetMs: 10_000,
            background: CallbackBackground(payload: #"{"aps":{"alert":"Hi"}}"#)))
        _ = await broker.send(
            CallbackParams(callbackID: 2, callback: .willTerminate, state: .notRunning, budgetMs: 5000))
        await running.value
        await broker.stop()
        return try answer.get()
    }
}

/// Presents its notifications in front with `options`, keeping each payload.
@MainActor
private final class Presenting: ApplicationDelegate {
    let options: NotificationPresentationOptions
    var payloads: [String] = []

    init(options: NotificationPresentationOptions) {
        self.options = options
    }

    func willPresentNotification(_ application: Application, payload: String) async
        -> NotificationPresentationOptions
    {
        payloads.append(payload)
        return options
    }
}

/// Does not implement `willPresentNotification`.
@MainActor
private final class Silent: ApplicationDelegate {}
