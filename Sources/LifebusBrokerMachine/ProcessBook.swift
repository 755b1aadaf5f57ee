import LifebusLifecycle
import LifebusProtocol

/// What the broker machine knows of installed apps and their processes: the one table of installed apps, the
/// phase of each app's spawned process (`ProcessPhase`: one value per app, so a spawn asked for and a process
/// running cannot both be), what each app's last launch and process left for the next (`failures`, `endings`,
/// `restoration`), and the resident-memory figures of the last rounds.
///
/// A plain value; `BrokerMachine+Processes` drives it. Invariants (`invariantViolations`): at most `maxInstalled`
/// apps installed; a process waits for its exit to relaunch only while its app is installed; a saved restoration
/// state and a remembered ending belong to an installed app, the state within `LaunchContext.maxRestorationBytes`;
/// a spawned pid is positive. An uninstalled app's process keeps its phase until it is reaped.
struct ProcessBook {
    /// The most apps installed at once.
    static let maxInstalled = 256

    /// Why a launch failed: the path concerned and the errno.
    struct Failure {
        var path: String
        var errno: Int32
        var detail: String
    }

    /// How a process ended, for the next launch's options.
    struct Ending {
        var pid: Int32
        var reason: LaunchContext.Reason
        var text: String
    }

    /// A spawned process that has not been reaped yet.
    struct SpawnedProcess: Equatable {
        var pid: Int32
        /// It said `hello` (its exit is then no launch failure).
        var hasConnected = false
        /// Stopped while suspended (`--freeze-suspended`).
        var isFrozen = false
        /// A launch came while it was ending: the next process is spawned at its exit.
        var relaunchesAtExit = false
    }

    /// Where an app's spawned process is; an app with none (never spawned, or reaped) has no phase.
    enum ProcessPhase: Equatable {
        /// A `spawn` effect was given and neither `processSpawned` nor `launchFailed` has come.
        case spawning
        /// Spawned and not yet reaped.
        case running(SpawnedProcess)
    }

    var installed: [AppID: InstalledApp] = [:]
    /// The phase of each app with a spawned process (asked for or not yet reaped).
    private(set) var phases: [AppID: ProcessPhase] = [:]
    /// The last launch failure of each app, for the `fire` it fails.
    var failures: [AppID: Failure] = [:]
    /// How each app's last process ended, until its next `didFinishLaunching` carries it.
    var endings: [AppID: Ending] = [:]
    /// The payload each app last saved (`saveRestorationState`), handed back at each launch until it saves another.
    var restoration: [AppID: String] = [:]
    /// Each connected app's last resident-memory sample.
    var resident: [AppID: Int] = [:]
    /// The pressure level of the last sampled round (`normal`, `warning`, `critical`); `nil` without a device size.
    var pressure: MemoryPressure?
    /// The figures of each jetsam kill the policy planned, until the kill is journaled.
    var jetsamFigures: [AppID: String] = [:]

    /// The app's spawned process not yet reaped.
    func spawned(_ app: AppID) -> SpawnedProcess? {
        if case .running(let process)? = phases[app] { process } else { nil }
    }

    /// The pid of the app's spawned process not yet reaped.
    func spawnedPid(of app: AppID) -> Int32? { spawned(app)?.pid }

    func isFrozen(_ app: AppID) -> Bool { spawned(app)?.isFrozen ?? false }

    /// The apps with a spawned process not yet reaped, in id order.
    var spawnedApps: [AppID] {
        phases.keys.filter { spawned($0) != nil }.sorted()
    }

    /// A launch of `app`: `true` when a spawn is to be asked for now; else it waits (a spawn is on its way, or the
    /// previous process is still being reaped: it relaunches at its exit).
    mutating func launch(_ app: AppID) -> Bool {
        switch phases[app] {
        case nil:
            phases[app] = .spawning
            return true
        case .spawning:
            return false
        case .running(var process):
            process.relaunchesAtExit = true
            phases[app] = .running(process)
            return false
        }
    }

    /// The spawn asked for started `pid`.
    mutating func processSpawned(_ app: AppID, pid: Int32) {
        phases[app] = .running(SpawnedProcess(pid: pid))
        failures[app] = nil
    }

    /// The spawn asked for failed (or was refused): no process.
    mutating func spawnFailed(_ app: AppID, _ failure: Failure) {
        if phases[app] == .spawning { phases[app] = nil }
        failures[app] = failure
    }

    /// The app's spawned process said `hello`; returns its pid (`nil` when it has none: it connected on its own).
    mutating func processConnected(_ app: AppID) -> Int32? {
        guard var process = spawned(app) else { return nil }
        process.hasConnected = true
        phases[app] = .running(process)
        return process.pid
    }

    /// Freezes (`true`) or thaws the app's spawned process; whether that changed anything.
    mutating func setFrozen(_ app: AppID, _ frozen: Bool) -> Bool {
        guard var process = spawned(app), process.isFrozen != frozen else { return false }
        process.isFrozen = frozen
        phases[app] = .running(process)
        return true
    }

    /// The process `pid` of `app` was reaped: the spawned process it was (`nil` for another, older one), now gone.
    mutating func processReaped(_ app: AppID, pid: Int32) -> SpawnedProcess? {
        guard let process = spawned(app), process.pid == pid else { return nil }
        phases[app] = nil
        resident[app] = nil
        return process
    }

    /// Forgets an installed app (`false` when it is not installed); a process of it runs on until reaped, and
    /// relaunches no more.
    mutating func uninstall(_ app: AppID) -> Bool {
        guard installed.removeValue(forKey: app) != nil else { return false }
        if var process = spawned(app) {
            process.relaunchesAtExit = false
            phases[app] = .running(process)
        }
        endings[app] = nil
        restoration[app] = nil
        return true
    }

    /// The broken invariants, in words; empty when the book is sound.
    var invariantViolations: [String] {
        var broken: [String] = []
        if installed.count > Self.maxInstalled { broken.append("\(installed.count) apps installed") }
        for (app, installedApp) in installed where installedApp.id != app {
            broken.append("\(app) is installed under the id \(installedApp.id)")
        }
        for (app, phase) in phases {
            guard case .running(let process) = phase else { continue }
            if process.pid <= 0 { broken.append("\(app)'s spawned process has pid \(process.pid)") }
            if process.relaunchesAtExit, installed[app] == nil {
                broken.append("\(app) relaunches at its exit but is not installed")
            }
        }
        for app in restoration.keys where installed[app] == nil {
            broken.append("\(app) keeps a restoration state but is not installed")
        }
        for (app, state) in restoration where state.utf8.count > LaunchContext.maxRestorationBytes {
            broken.append("\(app)'s restoration state is \(state.utf8.count) bytes")
        }
        for app in endings.keys where installed[app] == nil {
            broken.append("\(app) keeps an ending but is not installed")
        }
        return broken
    }
}
