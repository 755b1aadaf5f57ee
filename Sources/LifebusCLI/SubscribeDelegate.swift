import Glibc
import Lifebus
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The delegate behind `lifebus subscribe`: prints each callback as a JSON line, then waits, runs a hook, or
/// answers at once, as the plan says. A hook that exits non-zero (or is killed by a signal, or cannot start) makes
/// the answer say `handlerFailed`. With `--scenes` it is the scene delegate too: a scene callback's line and hook
/// name its scene and session (`$LIFEBUS_SCENE`, `$LIFEBUS_SESSION`, `$LIFEBUS_SCENE_STATE`, and the payload handed
/// back, `$LIFEBUS_RESTORATION`).
///
/// Owns the plan. Bound to the main actor (every delegate method runs there, one callback at a time).
@MainActor
final class SubscribeDelegate: ApplicationDelegate, SceneDelegate {
    private let plan: SubscribePlan
    private let socketPath: String
    private let supervisor: SupervisorHandle
    /// Called when `willTerminate` arrives, before its hook runs.
    var onWillTerminate: (() -> Void)?

    init(plan: SubscribePlan, socketPath: String, supervisor: SupervisorHandle) {
        self.plan = plan
        self.socketPath = socketPath
        self.supervisor = supervisor
    }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        await registerTasks(application)
        await handle(application)
    }
    func didBecomeActive(_ application: Application) async { await handle(application) }
    func willResignActive(_ application: Application) async { await handle(application) }
    func didEnterBackground(_ application: Application) async { await handle(application) }
    func willEnterForeground(_ application: Application) async { await handle(application) }
    func willTerminate(_ application: Application) async { await handle(application) }
    func didReceiveMemoryWarning(_ application: Application) async { await handle(application) }
    func configurationForConnecting(_ application: Application) async { await handle(application) }
    func protectedDataWillBecomeUnavailable(_ application: Application) async { await handle(application) }
    func protectedDataDidBecomeAvailable(_ application: Application) async { await handle(application) }
    func open(_ application: Application, url: String) async { await handle(application) }
    func didReceiveNotificationResponse(_ application: Application, payload: String) async {
        await handle(application)
    }

    /// A visible notification in the foreground: its hook runs, and the answer is `presentation` (`--present`).
    func willPresentNotification(_ application: Application, payload: String) async
        -> NotificationPresentationOptions
    {
        await handle(application)
        return presentation
    }

    /// `--present`: what `willPresentNotification` answers; none by default, as an app that does not implement the
    /// method (the journal's `push … presented none`).
    var presentation: NotificationPresentationOptions = []

    /// A silent push: `newData` when its hook succeeded, `failed` when it failed, `noData` without a hook.
    func didReceiveRemoteNotification(_ application: Application, payload: String) async -> BackgroundFetchResult {
        switch await handle(application) {
        case true?: .newData
        case false?: .failed
        case nil: .noData
        }
    }

    /// `--task ID…`: the identifiers to register at launch.
    var taskIdentifiers: [String] = []
    /// How long after launch a `--task` falls due: 15 minutes, the interval apps commonly ask of `BGAppRefreshTask`
    /// (`fire bgtask` runs it at once).
    nonisolated static let taskDelay = Duration.seconds(15 * 60)

    /// Registers each `--task` identifier while `didFinishLaunching` runs and submits it as an `appRefresh` request
    /// due `taskDelay` later. A task's launch handler prints its line, then runs `performBackgroundTask`'s hook (or
    /// waits its delay) and completes the task: `success` when the hook exited 0 (at once, successfully, without
    /// one). A refusal is said on stderr.
    private func registerTasks(_ application: Application) async {
        for identifier in taskIdentifiers {
            do throws(RPCError) {
                try await application.taskScheduler.register(identifier: identifier) { [self] task in
                    guard let callback = application.currentCallback else { return }
                    print(Self.line(for: callback).jsonText)
                    fflush(nil)
                    Task { @MainActor in
                        let succeeded = await self.react(to: callback, application) ?? true
                        try? await task.setTaskCompleted(success: succeeded)
                    }
                }
                try await application.taskScheduler.submit(
                    .init(identifier: identifier, kind: .appRefresh, earliestBeginAfter: Self.taskDelay))
            } catch {
                StandardError.writeLine("lifebus subscribe: cannot register task \(identifier): \(error.message)")
            }
        }
    }
    func didDiscardSceneSessions(_ application: Application, sessions: [SceneSession]) async {
        await handle(application)
    }

    /// The app, for the scene delegate's methods (they are handed the scene, not the app); set before `run`.
    weak var application: Application?
    /// `--restoration`: what `stateRestorationActivity` answers (JSON text), `nil` for nothing.
    var restoration: String?

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {
        await handleScene()
    }
    func scene(_ scene: Scene, restoreInteractionStateWith activity: String) async { await handleScene() }
    func sceneWillEnterForeground(_ scene: Scene) async { await handleScene() }
    func sceneDidBecomeActive(_ scene: Scene) async { await handleScene() }
    func sceneWillResignActive(_ scene: Scene) async { await handleScene() }
    func sceneDidEnterBackground(_ scene: Scene) async { await handleScene() }
    func stateRestorationActivity(for scene: Scene) async -> String? {
        await handleScene()
        return restoration
    }
    func sceneDidDisconnect(_ scene: Scene) async { await handleScene() }
    func scene(_ scene: Scene, openURLContexts urls: [String]) async { await handleScene() }

    private func handleScene() async {
        if let application { await handle(application) }
    }

    /// Prints the running callback's line and reacts as the plan says; whether a hook succeeded (`nil`: none ran).
    @discardableResult
    private func handle(_ application: Application) async -> Bool? {
        guard let callback = application.currentCallback else { return nil }
        if callback.callback == .willTerminate { onWillTerminate?() }
        print(Self.line(for: callback).jsonText)
        fflush(nil)
        return await react(to: callback, application)
    }

    /// Waits the callback's delay or runs its hook; whether the hook succeeded (`nil` when there is none).
    private func react(to callback: CallbackParams, _ application: Application) async -> Bool? {
        switch plan.reactions[callback.callback] {
        case nil:
            return nil
        case .delay(let duration):
            try? await Task.sleep(for: duration)
            return nil
        case .command(let command):
            var environment = ProcessEnvironment.current
            let extra = Self.environment(
                for: callback, appID: application.id, socketPath: socketPath, markSocket: supervisor.relayPath,
                protectedDataAvailable: application.isProtectedDataAvailable)
            for (key, value) in extra { environment[key] = value }
            let termination = await supervisor.runHook(SpawnedProcess.Options(
                program: "/bin/sh", arguments: ["-c", command], environment: environment, stdoutToStderr: true,
                diesWithParent: true
            ))
            guard termination == .exited(0) else {
                if application.currentCallback?.callbackID == callback.callbackID { application.reportHandlerFailure() }
                let how = termination.map(\.description) ?? "it could not start"
                StandardError.writeLine("lifebus subscribe: the \(callback.callback.rawValue) hook failed (\(how))")
                return false
            }
            return true
        }
    }

    /// The printed line: the callback's wire params, callback name first.
    /// A scene callback's line adds `scene`, `session` and `sceneState`, and the session's `restoration` payload when
    /// the callback hands one back.
    nonisolated static func line(for callback: CallbackParams) -> JSONValue {
        var line: JSONObject = [
            "callback": .string(callback.callback.rawValue),
            "callbackID": .integer(callback.callbackID),
            "state": .string(callback.state.rawValue),
            "cause": callback.cause?.json ?? .null,
            "budgetMs": wholeOrFraction(callback.budgetMs),
        ]
        if let scene = callback.scene {
            line.append("scene", .integer(Int64(scene.scene.number)))
            line.append("session", .integer(Int64(scene.session.number)))
            line.append("sceneState", .string(scene.sceneState.rawValue))
            if let restoration = scene.restoration, let payload = try? JSONParser.parse(restoration) {
                line.append("restoration", payload)
            }
        }
        return .object(line)
    }

    /// `5000` rather than `5000.0` for whole milliseconds; otherwise at most three decimals (microseconds), so a
    /// scaled budget prints `1988.258`, never `1988.2575339999999`.
    nonisolated static func wholeOrFraction(_ milliseconds: Double) -> JSONValue {
        let micro = (milliseconds * 1000).rounded() / 1000
        if micro.rounded() == micro, abs(micro) < 1e15 { return .integer(Int64(micro)) }
        return .double(micro)
    }

    /// The variables a `--on` command sees, on top of the process's own environment: a scene callback's adds
    /// `LIFEBUS_SCENE`, `LIFEBUS_SESSION` and `LIFEBUS_SCENE_STATE`, and its connection options' `LIFEBUS_URL` (the
    /// first URL context) and `LIFEBUS_PUSH` (the notification response, JSON) when it carries them; so do
    /// `didFinishLaunching`'s launch options (`url`, `remoteNotification`), `openURL`'s URL and
    /// `didReceiveNotificationResponse`'s and `willPresentNotification`'s payload. Every hook sees
    /// `LIFEBUS_PROTECTED_DATA`, `available` or `unavailable` (`Application.isProtectedDataAvailable`).
    nonisolated static func environment(
        for callback: CallbackParams, appID: String, socketPath: String, markSocket: String,
        protectedDataAvailable: Bool = true
    ) -> [String: String] {
        var environment = [
            "LIFEBUS_MARK_SOCKET": markSocket,
            "LIFEBUS_CALLBACK": callback.callback.rawValue,
            "LIFEBUS_CALLBACK_ID": String(callback.callbackID),
            "LIFEBUS_APP_ID": appID,
            "LIFEBUS_STATE": callback.state.rawValue,
            "LIFEBUS_CAUSE": callback.cause?.event ?? "",
            "LIFEBUS_BUDGET_MS": wholeOrFraction(callback.budgetMs).jsonText,
            "LIFEBUS_SOCKET": socketPath,
            "LIFEBUS_PROTECTED_DATA": protectedDataAvailable ? "available" : "unavailable",
        ]
        if let scene = callback.scene {
            environment["LIFEBUS_SCENE"] = String(scene.scene.number)
            environment["LIFEBUS_SESSION"] = String(scene.session.number)
            environment["LIFEBUS_SCENE_STATE"] = scene.sceneState.rawValue
            if let restoration = scene.restoration { environment["LIFEBUS_RESTORATION"] = restoration }
            if let url = scene.options?.urlContexts.first { environment["LIFEBUS_URL"] = url }
            if let push = scene.options?.notificationResponse { environment["LIFEBUS_PUSH"] = push }
        }
        if let background = callback.background {
            if let url = background.url ?? background.launchOptions?.url { environment["LIFEBUS_URL"] = url }
            if let push = background.launchOptions?.remoteNotification
                ?? (callback.callback == .didReceiveNotificationResponse
                    || callback.callback == .willPresentNotification ? background.payload : nil)
            {
                environment["LIFEBUS_PUSH"] = push
            }
        }
        return environment
    }
}
