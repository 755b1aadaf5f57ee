import LifebusLifecycle
import LifebusProtocol

/// What the broker machine knows of installed apps' processes: the manifests installed, the spawns asked for and
/// not yet answered, the processes running (spawned and not yet reaped), the launches waiting for the previous
/// process to be reaped, and the last launch failure of each app (for the `fire` it fails).
///
/// A plain value. Bounds: at most `maxInstalled` apps installed; every other member holds installed apps only
/// (an uninstalled app's running process stays until reaped), `restoration` one payload per installed app.
/// Invariant: an app is never both in `requested` and
/// `running` (a spawn is asked for only once the previous process was reaped).
struct ProcessBook {
    /// The most apps installed at once.
    static let maxInstalled = 256

    /// Why a launch failed: the path concerned and the errno.
    struct Failure {
        var path: String
        var errno: Int32
        var detail: String
    }

    var installed: [AppID: InstalledApp] = [:]
    /// A `spawn` effect was given and neither `processSpawned` nor `launchFailed` has come.
    var requested: Set<AppID> = []
    /// The pid of each spawned process not yet reaped.
    var running: [AppID: Int32] = [:]
    /// Launches asked while the app's previous process was still being reaped: spawned at its exit.
    var waitingForExit: Set<AppID> = []
    /// The apps whose running process has said `hello` (its exit is then no launch failure).
    var connected: Set<AppID> = []
    var failures: [AppID: Failure] = [:]
    /// How each app's last process ended, until its next `didFinishLaunching` carries it.
    var endings: [AppID: Ending] = [:]
    /// The payload each app last saved (`saveRestorationState`, at most `LaunchContext.maxRestorationBytes`),
    /// handed back at each launch until it saves another.
    var restoration: [AppID: String] = [:]
    /// The spawned apps frozen while suspended (`--freeze-suspended`).
    var frozen: Set<AppID> = []
    /// Each connected app's last resident-memory sample.
    var resident: [AppID: Int] = [:]
    /// The pressure level of the last sampled round (`normal`, `warning`, `critical`); `nil` without a device size.
    var pressure: MemoryPressure?
    /// The figures of each jetsam kill the policy planned, until the kill is journaled.
    var jetsamFigures: [AppID: String] = [:]

    /// How a process ended, for the next launch's options.
    struct Ending {
        var pid: Int32
        var reason: LaunchContext.Reason
        var text: String
    }
}
