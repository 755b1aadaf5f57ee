public import ArgumentParser
public import LifebusLifecycle

/// The device knobs of a broker a command starts, where Apple is silent (`Protocol/lifecycle.md`'s knob table), as
/// the `lifebusd` flags that set them: `lifebus run` gives them to every private broker it starts (each run's record
/// names them), `lifebus mcp --start-broker` to its broker. Each option not given is the profile's own.
///
/// A plain value. Invariant: `arguments` names exactly the options given, in a fixed order.
public struct BrokerKnobOptions: ParsableArguments, Sendable {
    /// `--protected-data-notifications`: whether a suspended app hears the net change of protected data when it runs
    /// again (B48–B51).
    public enum ProtectedDataNotifications: String, CaseIterable, ExpressibleByArgument, Sendable {
        case queued
        case missed
    }

    /// `--background-launch-scene`: whether a background launch connects a scene (S47–S51).
    public enum BackgroundLaunchScene: String, CaseIterable, ExpressibleByArgument, Sendable {
        case noScene = "none"
        case connects
    }

    /// `--tasks-after-force-quit`: the task kinds whose due task still launches an app the user force-quit
    /// (B64–B66): kinds separated by commas, or `none`.
    public struct TaskKinds: ExpressibleByArgument, Sendable, Equatable {
        /// The kinds, in `BackgroundTaskKind`'s order, each once.
        public let kinds: [BackgroundTaskKind]

        public init?(argument: String) {
            guard argument != "none" else {
                kinds = []
                return
            }
            var chosen: Set<BackgroundTaskKind> = []
            for word in argument.split(separator: ",", omittingEmptySubsequences: false) {
                guard let kind = BackgroundTaskKind(rawValue: String(word)) else { return nil }
                chosen.insert(kind)
            }
            kinds = BackgroundTaskKind.allCases.filter(chosen.contains)
        }

        /// The words `lifebusd --tasks-after-force-quit` reads.
        public var text: String { kinds.isEmpty ? "none" : kinds.map(\.rawValue).joined(separator: ",") }

        public static var allValueStrings: [String] { BackgroundTaskKind.allCases.map(\.rawValue) + ["none"] }
    }

    @Option(help: ArgumentHelp(
        "For the brokers started: whether a suspended app hears the net change of protected data when it runs again "
            + "(lifebusd --protected-data-notifications; default the profile's).", valueName: "queued|missed"))
    public var protectedDataNotifications: ProtectedDataNotifications?
    @Option(help: ArgumentHelp(
        "For the brokers started: the task kinds whose due task still launches an app the user force-quit, "
            + "comma-separated, or none (lifebusd --tasks-after-force-quit; default the profile's: processing).",
        valueName: "kinds"))
    public var tasksAfterForceQuit: TaskKinds?
    @Option(help: ArgumentHelp(
        "For the brokers started: whether a background launch connects a scene (lifebusd --background-launch-scene; "
            + "default the profile's: none).", valueName: "none|connects"))
    public var backgroundLaunchScene: BackgroundLaunchScene?

    public init() {}

    /// Whether no knob was given.
    public var isEmpty: Bool { arguments.isEmpty }

    /// The `lifebusd` arguments that set the knobs given.
    public var arguments: [String] {
        var arguments: [String] = []
        if let protectedDataNotifications {
            arguments += ["--protected-data-notifications", protectedDataNotifications.rawValue]
        }
        if let tasksAfterForceQuit { arguments += ["--tasks-after-force-quit", tasksAfterForceQuit.text] }
        if let backgroundLaunchScene { arguments += ["--background-launch-scene", backgroundLaunchScene.rawValue] }
        return arguments
    }
}
