/// The device's choices where Apple is silent that a broker can be started with over its profile's
/// (`Protocol/lifecycle.md`'s knob table: `Profile.queuesProtectedDataNotifications`, `taskKindsAfterForceQuit`,
/// `connectsSceneAtBackgroundLaunch`); each `nil` is the profile's own. The one declaration of their `lifebusd` flags:
/// the daemon reads them with `set(_:to:)`, and whatever starts a broker (`lifebus run`, `lifebus mcp
/// --start-broker`, the kit's live bus) writes them with `arguments`; `DeviceConfiguration` resolves them under its
/// profile.
///
/// A plain value. Invariant: reading `arguments` back through `set(_:to:)` gives the same value.
public struct DeviceKnobs: Sendable, Hashable {
    /// Whether a suspended app hears the net change of protected data when it runs again (B48–B51).
    public var queuesProtectedDataNotifications: Bool?
    /// The task kinds whose due task still launches an app the user force-quit (B64–B66).
    public var taskKindsAfterForceQuit: Set<BackgroundTaskKind>?
    /// Whether a background launch of a scene app connects a scene (S47–S52).
    public var connectsSceneAtBackgroundLaunch: Bool?

    public init(
        queuesProtectedDataNotifications: Bool? = nil, taskKindsAfterForceQuit: Set<BackgroundTaskKind>? = nil,
        connectsSceneAtBackgroundLaunch: Bool? = nil
    ) {
        self.queuesProtectedDataNotifications = queuesProtectedDataNotifications
        self.taskKindsAfterForceQuit = taskKindsAfterForceQuit
        self.connectsSceneAtBackgroundLaunch = connectsSceneAtBackgroundLaunch
    }

    /// The `lifebusd` flags (without their dashes), each with the words it takes, in the order `arguments` writes
    /// them.
    public static let flags: [(name: String, words: String)] = [
        ("protected-data-notifications", "queued or missed"),
        ("tasks-after-force-quit", "task kinds from \(kindWords), comma-separated, or none"),
        ("background-launch-scene", "none or connects"),
    ]

    /// Whether `name` is one of `flags`.
    public static func isFlag(_ name: String) -> Bool {
        flags.contains { $0.name == name }
    }

    /// Sets the knob of flag `name` from `text`; `false`, nothing set, when `text` is not one of its words (or
    /// `name` no flag).
    public mutating func set(_ name: String, to text: String) -> Bool {
        switch (name, text) {
        case ("protected-data-notifications", "queued"), ("protected-data-notifications", "missed"):
            queuesProtectedDataNotifications = text == "queued"
        case ("background-launch-scene", "none"), ("background-launch-scene", "connects"):
            connectsSceneAtBackgroundLaunch = text == "connects"
        case ("tasks-after-force-quit", _):
            guard let kinds = Self.kinds(text) else { return false }
            taskKindsAfterForceQuit = kinds
        default:
            return false
        }
        return true
    }

    /// The `lifebusd` arguments that set the knobs given, in `flags`' order (task kinds in their declaration order).
    public var arguments: [String] {
        var arguments: [String] = []
        if let queuesProtectedDataNotifications {
            arguments += ["--protected-data-notifications", queuesProtectedDataNotifications ? "queued" : "missed"]
        }
        if let taskKindsAfterForceQuit {
            let kinds = BackgroundTaskKind.allCases.filter(taskKindsAfterForceQuit.contains).map(\.rawValue)
            arguments += ["--tasks-after-force-quit", kinds.isEmpty ? "none" : kinds.joined(separator: ",")]
        }
        if let connectsSceneAtBackgroundLaunch {
            arguments += ["--background-launch-scene", connectsSceneAtBackgroundLaunch ? "connects" : "none"]
        }
        return arguments
    }

    /// These knobs, each one `other` gives replacing this one's (a scenario file's over the command line's).
    public func overridden(by other: DeviceKnobs) -> DeviceKnobs {
        DeviceKnobs(
            queuesProtectedDataNotifications:
                other.queuesProtectedDataNotifications ?? queuesProtectedDataNotifications,
            taskKindsAfterForceQuit: other.taskKindsAfterForceQuit ?? taskKindsAfterForceQuit,
            connectsSceneAtBackgroundLaunch: other.connectsSceneAtBackgroundLaunch ?? connectsSceneAtBackgroundLaunch)
    }

    /// The knobs given as flag name and word pairs, in `flags`' order (`arguments` without the dashes).
    public var words: [(flag: String, word: String)] {
        stride(from: 0, to: arguments.count, by: 2).map { (String(arguments[$0].dropFirst(2)), arguments[$0 + 1]) }
    }

    /// Task kinds separated by commas, or `none`; `nil` for anything else (an unknown or empty kind).
    public static func kinds(_ text: String) -> Set<BackgroundTaskKind>? {
        guard text != "none" else { return [] }
        var kinds: Set<BackgroundTaskKind> = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let kind = BackgroundTaskKind(rawValue: String(word)) else { return nil }
            kinds.insert(kind)
        }
        return kinds
    }

    private static let kindWords = BackgroundTaskKind.allCases.map(\.rawValue).joined(separator: ", ")
}
