package import LifebusLifecycle

/// One scripted thing that happens to the device in a test.
package enum Step: Sendable, CustomStringConvertible {
    case connect(AppID, AppFlags = AppFlags())
    case fire(ControllerEvent)
    /// The app stops answering callbacks until released.
    case hold(AppID)
    /// The app answers what it holds and answers instantly again.
    case release(AppID)
    /// The app's connection drops without being told to.
    case crash(AppID)
    /// After answering `willTerminate` the app's process stays.
    case linger(AppID)
    /// The app's process can't be started: `startProcess` for it is ignored.
    case noSpawn(AppID)
    case elapse(Duration)
    case beginTask(AppID, UInt64)
    case endTask(AppID, UInt64)
    case footprint(AppID, UInt64)
    /// The app answers a callback it was never sent.
    case bogusAnswer(AppID)
    /// The app answers `stateRestorationActivity` with this payload (JSON text) from now on.
    case restores(AppID, String)
    /// The app registers a `BGTask` launch handler for the identifier.
    case registerTask(AppID, String)
    /// The app submits a `BGTask` request, due `after` from now (`nil`: only when the controller runs it), a
    /// `processing` one with its requirements (`externalPower`, `networkConnectivity`).
    case submitTask(AppID, String, BackgroundTaskKind, after: Duration? = nil, requires: [ProcessingRequirement] = [])
    /// The app calls `setTaskCompleted(success:)` on its running task.
    case completeTask(AppID, String, success: Bool)

    /// The app a `connect` step connects, with its flags.
    var connected: (app: AppID, flags: AppFlags)? {
        if case .connect(let app, let flags) = self { (app, flags) } else { nil }
    }

    /// The app a launch starts if it is not running.
    var launched: AppID? {
        if case .fire(.launch(let app, _)) = self { app } else { nil }
    }

    package var description: String {
        switch self {
        case .connect(let app, _): "connect \(app)"
        case .fire(let event): "fire \(event)"
        case .hold(let app): "hold \(app)"
        case .release(let app): "release \(app)"
        case .crash(let app): "crash \(app)"
        case .linger(let app): "linger \(app)"
        case .noSpawn(let app): "noSpawn \(app)"
        case .elapse(let duration): "elapse \(duration)"
        case .beginTask(let app, let task): "begin \(app) \(task)"
        case .endTask(let app, let task): "end \(app) \(task)"
        case .footprint(let app, let bytes): "footprint \(app) \(bytes)"
        case .bogusAnswer(let app): "bogus answer \(app)"
        case .restores(let app, let payload): "restores \(app) \(payload)"
        case .registerTask(let app, let identifier): "register \(app) \(identifier)"
        case .submitTask(let app, let identifier, let kind, let after, let requires):
            "submit \(app) \(identifier) \(kind)" + (after.map { " after \($0)" } ?? "")
                + requires.map { " requires \($0)" }.joined()
        case .completeTask(let app, let identifier, let success): "complete \(app) \(identifier) \(success)"
        }
    }
}
