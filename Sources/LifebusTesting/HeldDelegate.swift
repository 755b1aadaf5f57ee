import Lifebus

/// The gate an in-process app's callbacks pass on a live bus (`LifebusTestBus.hold(_:)`): while it is closed, each
/// callback waits before its delegate method runs, so the broker's answer waits too; `open()` lets the waiting ones
/// (and every later one) through; `drop()`, for an app whose connection is gone, ends them without running the
/// delegate.
///
/// Bound to the main actor. Invariant: `waiting` is empty while the gate is open (at most one callback per app is
/// outstanding, so it holds one at most in practice).
@MainActor
final class CallbackGate {
    private var isClosed = false
    private var isDropped = false
    private var waiting: [CheckedContinuation<Bool, Never>] = []

    /// Holds every callback from now on.
    func close() {
        isClosed = true
    }

    /// Lets the held callbacks and every later one through.
    func open() {
        isClosed = false
        resume(true)
    }

    /// Ends the held callbacks without their delegate methods (the app's connection is gone).
    func drop() {
        isDropped = true
        isClosed = false
        resume(false)
    }

    /// Waits while the gate is closed; whether the delegate method should run.
    func pass() async -> Bool {
        guard isClosed else { return !isDropped }
        return await withCheckedContinuation { waiting.append($0) }
    }

    private func resume(_ run: Bool) {
        let resumed = waiting
        waiting = []
        for continuation in resumed { continuation.resume(returning: run) }
    }
}

/// A test's delegate behind a `CallbackGate`: each callback passes the gate, then runs the test's method. What the
/// app restores is the test delegate's. Owns nothing but the two references.
@MainActor
final class HeldDelegate<Delegate: ApplicationDelegate>: ApplicationDelegate {
    private let delegate: Delegate
    private let gate: CallbackGate

    init(_ delegate: Delegate, gate: CallbackGate) {
        self.delegate = delegate
        self.gate = gate
    }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        if await gate.pass() { await delegate.didFinishLaunching(application, options: options) }
    }

    func didBecomeActive(_ application: Application) async {
        if await gate.pass() { await delegate.didBecomeActive(application) }
    }

    func willResignActive(_ application: Application) async {
        if await gate.pass() { await delegate.willResignActive(application) }
    }

    func didEnterBackground(_ application: Application) async {
        if await gate.pass() { await delegate.didEnterBackground(application) }
    }

    func willEnterForeground(_ application: Application) async {
        if await gate.pass() { await delegate.willEnterForeground(application) }
    }

    func willTerminate(_ application: Application) async {
        if await gate.pass() { await delegate.willTerminate(application) }
    }

    func didReceiveMemoryWarning(_ application: Application) async {
        if await gate.pass() { await delegate.didReceiveMemoryWarning(application) }
    }

    func configurationForConnecting(_ application: Application) async {
        if await gate.pass() { await delegate.configurationForConnecting(application) }
    }

    func didDiscardSceneSessions(_ application: Application, sessions: [SceneSession]) async {
        if await gate.pass() { await delegate.didDiscardSceneSessions(application, sessions: sessions) }
    }

    func restorationState(_ application: Application) -> String? {
        delegate.restorationState(application)
    }

    func open(_ application: Application, url: String) async {
        if await gate.pass() { await delegate.open(application, url: url) }
    }

    func didReceiveNotificationResponse(_ application: Application, payload: String) async {
        if await gate.pass() { await delegate.didReceiveNotificationResponse(application, payload: payload) }
    }

    func willPresentNotification(_ application: Application, payload: String) async
        -> NotificationPresentationOptions
    {
        await gate.pass() ? await delegate.willPresentNotification(application, payload: payload) : []
    }

    /// The delegate's fetch result; `noData` (the protocol's default) when the gate ended the callback unrun.
    func didReceiveRemoteNotification(_ application: Application, payload: String) async -> BackgroundFetchResult {
        guard await gate.pass() else { return .noData }
        return await delegate.didReceiveRemoteNotification(application, payload: payload)
    }

    func protectedDataWillBecomeUnavailable(_ application: Application) async {
        if await gate.pass() { await delegate.protectedDataWillBecomeUnavailable(application) }
    }

    func protectedDataDidBecomeAvailable(_ application: Application) async {
        if await gate.pass() { await delegate.protectedDataDidBecomeAvailable(application) }
    }
}
