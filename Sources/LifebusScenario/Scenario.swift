public import LifebusLifecycle

/// One scenario file, read: the apps the runner installs or expects, then the steps it runs in order. A plain value.
///
/// Invariants: `name` is not empty (the parser defaults it to the file name without its extension); `profiles` is
/// not empty and holds each profile at most once, in `Profile.allCases` order — the profiles the scenario is meant
/// for (`lifebus run --profile P` runs it only under the selected profiles it lists). `knobs` are the device knobs its
/// private brokers run with, over the command line's (`DeviceKnobs`; empty: the command line's, else the profile's).
public struct Scenario: Sendable, Equatable {
    public var name: String
    public var description: String?
    public var profiles: [Profile]
    public var apps: [ScenarioApp]
    public var steps: [ScenarioStep]
    public var knobs: DeviceKnobs

    public init(
        name: String,
        description: String? = nil,
        profiles: [Profile] = Profile.allCases,
        apps: [ScenarioApp] = [],
        steps: [ScenarioStep] = [],
        knobs: DeviceKnobs = DeviceKnobs()
    ) {
        self.name = name
        self.description = description
        self.profiles = profiles
        self.apps = apps
        self.steps = steps
        self.knobs = knobs
    }
}

/// An app a scenario names before its steps: a manifest the runner installs, or an id the runner does not install
/// (an app a running broker already knows, or one that connects on its own).
public enum ScenarioApp: Sendable, Equatable {
    /// A manifest file, as written in the scenario (a path relative to the scenario file's directory).
    case manifest(path: String)
    /// An app by id only.
    case id(String)
}
