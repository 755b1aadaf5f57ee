public import LifebusJSON
public import LifebusLifecycle
import LifebusProtocol

/// One installed app as the broker machine knows it: its manifest's flags (which win over what its `hello` says),
/// what to run (carried whole by each `BrokerEffect.spawn`: the supervisor keeps no table of its own) and what `apps`
/// shows.
///
/// A plain value. The machine owns the one table of installed apps (`ProcessBook`); ids are unique there.
public struct InstalledApp: Sendable, Equatable {
    public var id: AppID
    public var flags: AppFlags
    public var executable: String
    public var arguments: [String]
    /// Variables set over the broker's environment when the app is started.
    public var environment: [String: String]
    /// Where the app is started; `nil`: the broker's working directory.
    public var workingDirectory: String?
    /// Resident bytes above which the app is killed even in front; `nil` for none.
    public var memoryLimit: Int?
    /// Where the app's stdout and stderr go.
    public var logPath: String
    /// The manifest file, or `nil` for one given inline to `install`.
    public var manifestPath: String?
    /// Shell commands answering callbacks by name (`lifebus subscribe --on`); empty for an app that speaks the
    /// protocol itself.
    public var hooks: [LifecycleCallback: String]

    public init(
        id: AppID, flags: AppFlags, executable: String, arguments: [String] = [], environment: [String: String] = [:],
        workingDirectory: String? = nil, memoryLimit: Int?, logPath: String, manifestPath: String?,
        hooks: [LifecycleCallback: String] = [:]
    ) {
        self.id = id
        self.flags = flags
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.memoryLimit = memoryLimit
        self.logPath = logPath
        self.manifestPath = manifestPath
        self.hooks = hooks
    }

    /// The app's line in `apps` (and the answer to `install`), with its state, its process's pid and its last
    /// resident-memory sample.
    func json(state: LifecycleState, pid: Int32?, spawned: Bool, residentBytes: Int?, frozen: Bool) -> JSONValue {
        [
            "id": .string(id.rawValue),
            "executable": .string(executable),
            "state": .string(state.rawValue),
            "pid": pid.map { .integer(Int64($0)) } ?? .null,
            "spawned": .bool(spawned),
            "frozen": .bool(frozen),
            "memoryLimit": memoryLimit.map { .integer(Int64($0)) } ?? .null,
            "residentBytes": residentBytes.map { .integer(Int64($0)) } ?? .null,
            "logPath": .string(logPath),
            "manifest": manifestPath.map(JSONValue.string) ?? .null,
            "flags": flags.json,
        ]
    }
}

/// Where an `install` takes its manifest from, with the installing client's variables its `${VAR}`s take
/// (`Protocol/README.md` §16.1: only those the manifest names, and `PATH` for an executable without a slash).
public enum ManifestSource: Sendable, Equatable {
    /// A manifest file (its relative paths are taken from its folder).
    case file(String, environment: [String: String])
    /// A manifest object given inline (its paths must be absolute).
    case object(JSONObject, environment: [String: String])
}
