import Glibc
import LifebusContainment
import LifebusIO
import LifebusLifecycle

/// What to start for one app and where its output goes: the manifest's program, plus what the broker adds.
///
/// A plain value. The child's environment is the broker's, then the manifest's `environment` over it, then
/// `LIFEBUS_SOCKET` and `LIFEBUS_APP_ID` over both (a manifest cannot point an app at another broker or identity).
public struct LaunchRequest: Sendable, Equatable {
    public var appID: String
    public var executable: String
    public var arguments: [String]
    /// Variables set over the broker's own environment.
    public var environment: [String: String]
    public var workingDirectory: String?
    /// The broker's socket, handed to the app as `LIFEBUS_SOCKET`.
    public var socketPath: String
    /// The app's log file: stdout and stderr are appended to it.
    public var logPath: String

    public init(
        appID: String, executable: String, arguments: [String] = [], environment: [String: String] = [:],
        workingDirectory: String? = nil, socketPath: String, logPath: String
    ) {
        self.appID = appID
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.socketPath = socketPath
        self.logPath = logPath
    }

    /// The request for an installed app. A manifest with `hooks` runs under `hookAdapter` (the `lifebus` CLI):
    /// `lifebus subscribe --id ID [FLAGS] --on CALLBACK=COMMAND… -- EXECUTABLE ARGUMENTS…`, the hooks in callback
    /// order, FLAGS the manifest's (`--exits-on-suspend`, `--background-mode M` for each mode subscribe knows,
    /// `--launch-in-background`) so its `hello` says what the manifest does; `nil` (no adapter was found) is then a
    /// launch failure (`ENOENT` on `lifebus`).
    public init(
        manifest: AppManifest, socketPath: String, logPath: String, hookAdapter: String?
    ) throws(LaunchFailure) {
        var executable = manifest.executable
        var arguments = manifest.arguments
        if !manifest.hooks.isEmpty {
            guard let hookAdapter else {
                let missing = SystemError("posix_spawn", path: "lifebus", code: ENOENT)
                throw LaunchFailure(appID: manifest.id, cause: missing)
            }
            arguments = Self.subscribeArguments(manifest) + ["--", executable] + arguments
            executable = hookAdapter
        }
        self.init(
            appID: manifest.id, executable: executable, arguments: arguments, environment: manifest.environment,
            workingDirectory: manifest.workingDirectory, socketPath: socketPath, logPath: logPath)
    }

    /// `subscribe --id ID [FLAGS] --on CALLBACK=COMMAND…` for a manifest with hooks.
    private static func subscribeArguments(_ manifest: AppManifest) -> [String] {
        var arguments = ["subscribe", "--id", manifest.id]
        if manifest.exitsOnSuspend { arguments.append("--exits-on-suspend") }
        for mode in manifest.backgroundModes where AppFlags.knownBackgroundModes.contains(mode) {
            arguments += ["--background-mode", mode]
        }
        if manifest.launchInBackground { arguments.append("--launch-in-background") }
        for callback in LifecycleCallback.allCases {
            if let command = manifest.hooks[callback] { arguments += ["--on", "\(callback.rawValue)=\(command)"] }
        }
        return arguments
    }

    /// The whole environment the child gets, over the broker's.
    public func childEnvironment() -> [String: String] {
        childEnvironment(over: ProcessEnvironment.current)
    }

    /// The whole environment the child gets, over `inherited`.
    public func childEnvironment(over inherited: [String: String]) -> [String: String] {
        var result = inherited.merging(environment) { _, manifest in manifest }
        result["LIFEBUS_SOCKET"] = socketPath
        result["LIFEBUS_APP_ID"] = appID
        return result
    }
}
