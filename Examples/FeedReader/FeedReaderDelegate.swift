import Glibc
import Lifebus
import LifebusJSON
import LifebusLifecycle

/// FeedReader, the background-execution example (issue 28): it keeps a draft (a counter that grows each time it
/// becomes active) in a `ProtectedFile` of class `.complete`, refreshes its feed in a `BGAppRefreshTask`
/// (`com.example.FeedReader.refresh`, submitted at launch to begin 15 minutes later) and saves the draft there, and
/// saves it when a silent push arrives. With `--cleans` it also registers a `BGProcessingTask`
/// (`com.example.FeedReader.clean`, submitted at launch to begin a minute later, requiring external power and the
/// network) that marks `clean-started` and completes (`clean-completed`). Every step is reported with `mark`.
///
/// Two deliberate bugs, each a flag, each what the README's stories show:
/// - `--forgets-completion`: the refresh handler never calls `setTaskCompleted` — the app is killed
///   (`backgroundTaskExpired`) at the refresh budget (30 s);
/// - without `--saves-on-lock` it saves only in the refresh task and on a push: one run 15 s after `fire sleep`
///   finds the draft locked (`EPERM`, `draft-lost`). With it, the app keeps syncing in the background when sent
///   there (`beginBackgroundTask`, ended when it expires) and saves the draft on
///   `protectedDataWillBecomeUnavailable`, which the device sends to the apps running at the lock, and to a suspended
///   app when it runs again locked (`draft-saved`),
///   and writes nothing while protected data is unavailable (`draft-deferred`: a push that launches it after the
///   lock).
///
/// Owns its draft. Bound to the main actor.
@MainActor
final class FeedReaderDelegate: ApplicationDelegate {
    static let appID = "com.example.FeedReader"
    static let refresh = "com.example.FeedReader.refresh"
    static let clean = "com.example.FeedReader.clean"

    private let draftPath: String
    private let forgetsCompletion: Bool
    private let savesOnLock: Bool
    private let cleans: Bool
    private var draft = 0

    init(draftPath: String, forgetsCompletion: Bool, savesOnLock: Bool, cleans: Bool) {
        self.draftPath = draftPath
        self.forgetsCompletion = forgetsCompletion
        self.savesOnLock = savesOnLock
        self.cleans = cleans
    }

    /// Parses the command line (`--socket`, `--state-file` for the draft, app flags, `--forgets-completion`,
    /// `--saves-on-lock`, `--cleans`) and runs until the broker terminates the app.
    static func main() async -> Never {
        let arguments = LaunchArguments.commandLine(program: "FeedReader", allowingUnknown: true)
        let known = ["--forgets-completion", "--saves-on-lock", "--cleans"]
        if let unknown = arguments.remaining.first(where: { !known.contains($0) }) {
            let line = "FeedReader: unknown argument \(unknown) (it knows \(known.joined(separator: ", ")))\n"
            _ = line.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
            exit(2)
        }
        var options = arguments.options
        let cleans = arguments.remaining.contains("--cleans")
        options.permittedTaskIdentifiers = cleans ? [refresh, clean] : [refresh]
        let delegate = FeedReaderDelegate(
            draftPath: StateFile.path(for: appID, explicit: arguments.stateFile) + ".draft",
            forgetsCompletion: arguments.remaining.contains("--forgets-completion"),
            savesOnLock: arguments.remaining.contains("--saves-on-lock"), cleans: cleans)
        await ApplicationMain(id: appID, delegate: delegate, options: options)
    }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        await mark(application, "launched", ["background": .bool(options.isBackgroundLaunch)])
        let scheduler = application.taskScheduler
        do {
            try await scheduler.register(identifier: Self.refresh) { [self] task in
                Task { await self.refresh(task, application) }
            }
            try await scheduler.submit(.init(
                identifier: Self.refresh, kind: .appRefresh, earliestBeginAfter: .seconds(15 * 60)))
        } catch {
            await mark(application, "refresh-unavailable", ["error": .string(error.message)])
        }
        guard cleans else { return }
        do {
            try await scheduler.register(identifier: Self.clean) { [self] task in
                Task { await self.clean(task, application) }
            }
            try await scheduler.submit(.init(
                identifier: Self.clean, kind: .processing, earliestBeginAfter: .seconds(60),
                requiresExternalPower: true, requiresNetworkConnectivity: true))
        } catch {
            await mark(application, "clean-unavailable", ["error": .string(error.message)])
        }
    }

    func didBecomeActive(_ application: Application) async {
        draft += 1
    }

    func didReceiveRemoteNotification(_ application: Application, payload: String) async -> BackgroundFetchResult {
        await save(application)
    }

    func didEnterBackground(_ application: Application) async {
        guard savesOnLock else { return }
        var sync: BackgroundTaskIdentifier?
        sync = try? await application.beginBackgroundTask(name: "sync") {
            Task { if let sync { try? await application.endBackgroundTask(sync) } }
        }
    }

    func protectedDataWillBecomeUnavailable(_ application: Application) async {
        if savesOnLock { _ = await save(application) }
    }

    /// The refresh task: fetches (nothing to fetch here) and saves the draft, then completes — unless it forgets.
    private func refresh(_ task: BackgroundTask, _ application: Application) async {
        task.expirationHandler = { [self] in Task { await self.mark(application, "refresh-expiring", [:]) } }
        await mark(application, "refresh-started", [:])
        _ = await save(application)
        guard !forgetsCompletion else { return }
        try? await task.setTaskCompleted(success: true)
        await mark(application, "refresh-completed", [:])
    }

    /// The processing task (`--cleans`): cleans up (nothing to clean here) and completes.
    private func clean(_ task: BackgroundTask, _ application: Application) async {
        task.expirationHandler = { [self] in Task { await self.mark(application, "clean-expiring", [:]) } }
        await mark(application, "clean-started", [:])
        try? await task.setTaskCompleted(success: true)
        await mark(application, "clean-completed", [:])
    }

    /// Writes the draft to its protected file: `draft-saved` (`newData`), or `draft-lost` with the error (`EPERM`
    /// while the device's protected data is unavailable; `failed`). With `--saves-on-lock` it does not try while
    /// protected data is unavailable (`isProtectedDataAvailable`): `draft-deferred` (`noData`), the draft kept in
    /// memory for the next save.
    private func save(_ application: Application) async -> BackgroundFetchResult {
        if savesOnLock, !application.isProtectedDataAvailable {
            await mark(application, "draft-deferred", ["draft": .integer(Int64(draft))])
            return .noData
        }
        let file = ProtectedFile(path: draftPath, protection: .complete, of: application)
        do throws(ProtectedFileError) {
            try file.write("draft=\(draft)\n")
            await mark(application, "draft-saved", ["draft": .integer(Int64(draft))])
            return .newData
        } catch {
            await mark(application, "draft-lost", [
                "draft": .integer(Int64(draft)), "errno": .string("\(error.code)"), "error": .string("\(error)"),
            ])
            return .failed
        }
    }

    /// Reports a step; a broker that is away loses the mark, and the app carries on.
    private func mark(_ application: Application, _ name: String, _ data: JSONObject) async {
        try? await application.mark(name, data: data)
    }
}
