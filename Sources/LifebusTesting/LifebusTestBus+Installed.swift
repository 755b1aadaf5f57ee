import Glibc
import LifebusJSON
public import LifebusLifecycle
import LifebusProtocol

/// Installed apps: real executables described by manifests (`Protocol/README.md` §16), which the live broker's
/// supervisor starts, watches and kills, as `lifebus install FILE` and `lifebus fire launch ID` do. Expectations,
/// `fire` and `advance` work on them as on in-process apps (the broker's journal is the same either way).
///
/// The in-memory transport starts no processes: it refuses `install(manifest:)` with a `LifebusTestBusError` that
/// says so (its equivalent is `launch(_:delegate:)` with the app's delegate in the test's process).
extension LifebusTestBus {
    /// Installs the app the manifest at `path` describes (relative to the current directory; the manifest's own
    /// relative `executable` is relative to the manifest) and returns its id. Throws the broker's refusal (it names
    /// the file and the member) as it comes.
    ///
    /// - Parameter path: The manifest file.
    /// - Returns: The installed app's id, for ``launch(_:)``.
    /// - Throws: The broker's refusal, or ``LifebusTestBusError`` on an in-memory bus.
    @discardableResult
    public func install(manifest path: String) async throws -> AppID {
        guard transport.socketPath != nil else {
            throw LifebusTestBusError(
                "an in-memory bus starts no processes: install(manifest:) needs the .live transport; "
                    + "in memory, launch the app with its delegate (launch(_:delegate:))"
            )
        }
        let params = JSONValue.object(["path": .string(Self.absolute(path))])
        let answer = try await transport.request(LifebusMethod.install, params)
        guard let id = answer["id"]?.stringValue else {
            throw LifebusTestBusError("the broker's answer to install names no app: \(answer.jsonText)")
        }
        installed.insert(AppID(id))
        return AppID(id)
    }

    /// Launches the installed app `id`: the broker starts its executable and returns once the app has come up
    /// (`didFinishLaunching`, `didBecomeActive` answered); later expectations of its callbacks start after its
    /// launch. A spawn that fails throws the broker's `lifebus.LaunchFailed` (path and errno); a process that does
    /// not connect within the launch budget throws `LaunchTimedOut` (the broker has killed it) — on a manual clock
    /// the budget passes only by `advance(by:)`: fire `.launch(id)` with `waiting: false`, then advance.
    ///
    /// - Parameter id: An app installed with ``install(manifest:)``.
    /// - Returns: The app, for the bus's other operations and expectations.
    /// - Throws: ``LifebusTestBusError`` when the app is not installed on this bus or already on it, the broker's
    ///   `lifebus.LaunchFailed` when its executable cannot be started, ``LaunchTimedOut`` when it does not connect in
    ///   time.
    public func launch(_ id: AppID) async throws -> LifebusTestApp {
        guard apps[id] == nil else { throw LifebusTestBusError("\(id) is already on this bus") }
        guard installed.contains(id) else {
            throw LifebusTestBusError(
                "\(id) is not installed on this bus: install(manifest:) it first, or launch(_:delegate:) an app "
                    + "served by a delegate in the test's process"
            )
        }
        try await fire(.launch(id))
        return try await admit(LifebusTestApp(id: id, application: nil))
    }

    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let folder = getcwd(nil, 0) else { return path }
        defer { free(folder) }
        return String(cString: folder) + "/" + path
    }
}
