public import LifebusLifecycle
public import LifebusProtocol

/// One step of a scenario: a mapping with exactly one key in the file, one case here. A plain value.
public enum ScenarioStep: Sendable, Equatable {
    /// `launch: ID` — `lifebus fire launch ID`; the runner waits until the app is active.
    case launch(String)
    /// `fire: WORDS` — the words of `lifebus fire`, read by its parser; the runner always waits for the event's
    /// transitions to complete (`wait` is `true` in what the parser gives).
    case fire(FireParams)
    /// `advance: 5s` — the manual clock moves on (`lifebus clock advance`).
    case advance(Duration)
    /// `wait: {app, scene, state, timeout}` — until the app (or its scene) is in one of the states, or the step fails
    /// at the timeout.
    case wait(ScenarioWait)
    /// `expect: {…}` — checks against what the broker recorded since the previous `expect` of that app.
    case expect(ScenarioExpectation)
    /// `kill: {app, signal}` — the runner kills the app's process, as a crash.
    case kill(ScenarioKill)
    /// `relaunch: ID` — launch again after the app ended; the runner waits until it is active.
    case relaunch(String)
    /// `note: TEXT` — printed in the report; checks nothing.
    case note(String)

    /// The step's key in a file.
    public var key: String {
        switch self {
        case .launch: "launch"
        case .fire: "fire"
        case .advance: "advance"
        case .wait: "wait"
        case .expect: "expect"
        case .kill: "kill"
        case .relaunch: "relaunch"
        case .note: "note"
        }
    }

    /// The keys a step may have, in the format's order.
    public static let keys = ["launch", "fire", "advance", "wait", "expect", "kill", "relaunch", "note"]
}

/// A `wait` step: until `app` is in any of `states` — or, with `scene`, until that scene is in any of `sceneStates`
/// (`unattached` when it is not connected) — for at most `timeout`.
///
/// Invariant: without `scene`, `states` is not empty and `sceneStates` is; with it, the other way round.
public struct ScenarioWait: Sendable, Equatable {
    public var app: String
    public var states: [LifecycleState]
    public var scene: SceneID?
    public var sceneStates: [SceneState]
    public var timeout: Duration

    /// The timeout when the file gives none.
    public static let defaultTimeout: Duration = .seconds(10)

    public init(app: String, states: [LifecycleState], timeout: Duration = Self.defaultTimeout) {
        self.app = app
        self.states = states
        self.sceneStates = []
        self.timeout = timeout
    }

    public init(app: String, scene: SceneID, states: [SceneState], timeout: Duration = Self.defaultTimeout) {
        self.app = app
        self.states = []
        self.scene = scene
        self.sceneStates = states
        self.timeout = timeout
    }

    /// The states waited for, as a file spells them: `background|suspended`.
    public var statesText: String {
        scene == nil
            ? states.map(\.rawValue).joined(separator: "|") : sceneStates.map(\.rawValue).joined(separator: "|")
    }
}

/// A `kill` step: the runner sends `signal` (a name without `SIG`, e.g. `KILL`, `SEGV`) to the app's process.
public struct ScenarioKill: Sendable, Equatable {
    public var app: String
    public var signal: String

    public init(app: String, signal: String = "KILL") {
        self.app = app
        self.signal = signal
    }
}

extension ScenarioKill {
    /// The signals a `kill` step may send, by name without `SIG`: a crash (`KILL`, `SEGV`, `ABRT`, `BUS`, `ILL`,
    /// `FPE`) or an ending the app may handle (`TERM`, `INT`, `QUIT`).
    public static let signals: [String: Int32] = [
        "KILL": 9, "SEGV": 11, "ABRT": 6, "BUS": 7, "ILL": 4, "FPE": 8, "TERM": 15, "INT": 2, "QUIT": 3,
    ]
}
