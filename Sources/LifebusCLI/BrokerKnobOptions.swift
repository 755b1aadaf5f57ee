public import ArgumentParser
public import LifebusLifecycle

/// The device knobs of a broker a command starts, where Apple is silent (`Protocol/lifecycle.md`'s knob table), as
/// the `lifebusd` flags that set them: `lifebus run` gives them to every private broker it starts (each run's record
/// names them), `lifebus mcp --start-broker` to its broker. Each option not given is the profile's own.
///
/// A plain value: the options as parsed; `knobs` is the value every layer takes.
public struct BrokerKnobOptions: ParsableArguments, Sendable {
    /// `--protected-data-notifications`: whether a suspended app hears the net change of protected data when it runs
    /// again (B48–B51).
    public enum ProtectedDataNotifications: String, CaseIterable, ExpressibleByArgument, Sendable {
        case queued
        case missed
    }

    /// `--background-launch-scene`: whether a background launch connects a scene (S47–S52).
    public enum BackgroundLaunchScene: String, CaseIterable, ExpressibleByArgument, Sendable {
        case noScene = "none"
        case connects
    }

    /// `--tasks-after-force-quit`: the task kinds whose due task still launches an app the user force-quit
    /// (B64–B66): kinds separated by commas, or `none` (`DeviceKnobs.kinds(_:)`).
    public struct TaskKinds: ExpressibleByArgument, Sendable {
        public let kinds: Set<BackgroundTaskKind>

        public init?(argument: String) {
            guard let kinds = DeviceKnobs.kinds(argument) else { return nil }
            self.kinds = kinds
        }

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
    public var isEmpty: Bool { knobs == DeviceKnobs() }

    /// The knobs given, each word read as `lifebusd` reads it (`DeviceKnobs.set(_:to:)`: the options only list the
    /// words; `arguments` writes them back for `lifebusd`).
    public var knobs: DeviceKnobs {
        var knobs = DeviceKnobs(taskKindsAfterForceQuit: tasksAfterForceQuit?.kinds)
        if let protectedDataNotifications {
            _ = knobs.set("protected-data-notifications", to: protectedDataNotifications.rawValue)
        }
        if let backgroundLaunchScene { _ = knobs.set("background-launch-scene", to: backgroundLaunchScene.rawValue) }
        return knobs
    }
}
