public import LifebusLifecycle

/// One installed app: what to start and how the lifecycle treats it (`Protocol/README.md` §16, schema
/// `Protocol/schemas/manifest.schema.json`).
///
/// A plain value. Invariants once parsed: every `${VAR}` was expanded (`ManifestVariables`), `id` is a valid app id
/// (safe as a file name), `executable` and `workingDirectory` are absolute, the executable was executable when the
/// manifest was read, `memoryLimit` is positive, no hook command is empty.
public struct AppManifest: Sendable, Equatable {
    public var id: String
    /// Absolute path of the program (a relative one with a slash in the file is taken from the manifest's folder,
    /// one without a slash is looked up on the installing client's `PATH`).
    public var executable: String
    public var arguments: [String]
    /// Variables set over the broker's environment when the app is started.
    public var environment: [String: String]
    /// Absolute; `nil` starts the app in the broker's working directory.
    public var workingDirectory: String?
    /// `UIApplicationExitsOnSuspend`.
    public var exitsOnSuspend: Bool
    /// `UIBackgroundModes`.
    public var backgroundModes: [String]
    /// The app may be launched straight into the background.
    public var launchInBackground: Bool
    /// `BGTaskSchedulerPermittedIdentifiers`: the task identifiers the app may register and submit (the app's flags'
    /// `permittedTaskIdentifiers`).
    public var backgroundTaskIdentifiers: [String]
    /// Resident bytes above which the app is killed even in front; `nil` for no limit of its own.
    public var memoryLimit: Int?
    /// Shell commands answering callbacks, for a program that does not speak the protocol: the app's process is then
    /// `lifebus subscribe --id ID --on CALLBACK=COMMAND… -- EXECUTABLE ARGUMENTS…` (`LaunchRequest`). Empty: the
    /// program is the app's process itself.
    public var hooks: [LifecycleCallback: String]

    public init(
        id: String, executable: String, arguments: [String] = [], environment: [String: String] = [:],
        workingDirectory: String? = nil, exitsOnSuspend: Bool = false, backgroundModes: [String] = [],
        launchInBackground: Bool = false, backgroundTaskIdentifiers: [String] = [], memoryLimit: Int? = nil,
        hooks: [LifecycleCallback: String] = [:]
    ) {
        self.id = id
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.exitsOnSuspend = exitsOnSuspend
        self.backgroundModes = backgroundModes
        self.launchInBackground = launchInBackground
        self.backgroundTaskIdentifiers = backgroundTaskIdentifiers
        self.memoryLimit = memoryLimit
        self.hooks = hooks
    }

    /// Every member a manifest may have (`$schema` lets editors find the schema).
    public static let members = [
        "$schema", "id", "executable", "arguments", "environment", "workingDirectory", "exitsOnSuspend",
        "backgroundModes", "launchInBackground", "backgroundTaskIdentifiers", "memoryLimit", "hooks",
    ]

    /// The longest app id a manifest installs: the wire allows 255 (Protocol §15.2), but `<id>.log.1` must fit a file
    /// name (255 bytes).
    public static let maxIDLength = 249

    /// The largest manifest file read.
    public static let maxFileBytes = 64 * 1024

    /// Whether `id` is an app id a manifest may install: 1 to `maxIDLength` of `A-Z a-z 0-9 . - _`, not all dots.
    public static func isValidID(_ id: String) -> Bool {
        let allowed = id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        return allowed && (1...maxIDLength).contains(id.utf8.count) && id.contains { $0 != "." }
    }
}
