public import LifebusExpectation
public import LifebusJSON
public import LifebusLifecycle

/// An `expect` step: what an app — or, with `scene`, one of its scenes — went through since the previous `expect` of
/// that app (or scene), and where it is now. Every member is optional and all given are checked; `profiles` overrides
/// members under a profile. A plain value.
///
/// Invariants: an override (a value of `profiles`) has no `profiles` and no `scene` of its own; `sceneStates` is
/// given only with `scene`, `states` only without it.
public struct ScenarioExpectation: Sendable, Equatable {
    /// The app; `nil` means the scenario's current app (see `Protocol/scenarios.md`).
    public var app: String?
    /// The scene (of the app) whose callbacks and state are checked; `nil` for the app's own.
    public var scene: SceneID?
    /// The callbacks, in order, exactly (with `scene`: those of that scene's transitions).
    public var callbacks: [LifecycleCallback]?
    /// The app's state now: any of these.
    public var states: [LifecycleState]?
    /// The scene's state now (`unattached` when it is not connected): any of these.
    public var sceneStates: [SceneState]?
    /// The app's last mark of this name in scope, whose data has these members.
    public var mark: ScenarioMark?
    /// Every transition in scope ended so (`ok`, `late`, `watchdog`, …, `failed`).
    public var outcome: Verdict?
    /// A callback answered within a share of its budget.
    public var budget: ScenarioBudget?
    /// How the latest run of a `BGTask` in scope ended (`task: {identifier, outcome}`).
    public var task: ScenarioTask?
    /// How the latest silent push in scope ended (`push: newData`).
    public var push: ScenarioPushOutcome?
    /// How the app chose to show the latest visible notification offered to it in scope (`presented: [banner,
    /// sound]`, `presented: none`): its `willPresentNotification` answer's options, as its `presented` push record
    /// says.
    public var presented: NotificationPresentationOptions?
    /// A mark the app did not make in scope (`noMark: draft-lost`).
    public var noMark: String?
    /// A `BGTask` the app was not launched for in scope (`noTask: com.example.Feed.clean`): no task record of that
    /// identifier with event `launched`.
    public var noTask: String?
    /// Per-profile overrides of the members above.
    public var profiles: [Profile: ScenarioExpectation]

    public init(
        app: String? = nil,
        scene: SceneID? = nil,
        callbacks: [LifecycleCallback]? = nil,
        states: [LifecycleState]? = nil,
        sceneStates: [SceneState]? = nil,
        mark: ScenarioMark? = nil,
        outcome: Verdict? = nil,
        budget: ScenarioBudget? = nil,
        task: ScenarioTask? = nil,
        push: ScenarioPushOutcome? = nil,
        presented: NotificationPresentationOptions? = nil,
        noMark: String? = nil,
        noTask: String? = nil,
        profiles: [Profile: ScenarioExpectation] = [:]
    ) {
        self.app = app
        self.scene = scene
        self.callbacks = callbacks
        self.states = states
        self.sceneStates = sceneStates
        self.mark = mark
        self.outcome = outcome
        self.budget = budget
        self.task = task
        self.push = push
        self.presented = presented
        self.noMark = noMark
        self.noTask = noTask
        self.profiles = profiles
    }

    /// The expectation under `profile`: each member its override's when the override gives it, else this one's.
    public func resolved(for profile: Profile) -> ScenarioExpectation {
        guard let override = profiles[profile] else {
            return ScenarioExpectation(app: app, scene: scene, callbacks: callbacks, states: states,
                                       sceneStates: sceneStates, mark: mark, outcome: outcome, budget: budget,
                                       task: task, push: push, presented: presented, noMark: noMark,
                                       noTask: noTask)
        }
        return ScenarioExpectation(
            app: override.app ?? app, scene: scene, callbacks: override.callbacks ?? callbacks,
            states: override.states ?? states, sceneStates: override.sceneStates ?? sceneStates,
            mark: override.mark ?? mark, outcome: override.outcome ?? outcome, budget: override.budget ?? budget,
            task: override.task ?? task, push: override.push ?? push, presented: override.presented ?? presented,
            noMark: override.noMark ?? noMark, noTask: override.noTask ?? noTask)
    }
}

/// An expected mark: its name, and members its data must have (compared as `lifebus expect --data-has` does: a
/// string by its text, anything else by its JSON text).
public struct ScenarioMark: Sendable, Equatable {
    public var name: String
    public var data: JSONObject

    public init(name: String, data: JSONObject = [:]) {
        self.name = name
        self.data = data
    }
}

/// An expected budget share: the last `callback` in scope was answered within `percent` % of its budget.
/// Invariant: `percent` is in 0…100 (the parser refuses others).
public struct ScenarioBudget: Sendable, Equatable {
    public var callback: LifecycleCallback
    public var percent: Double

    public init(callback: LifecycleCallback, percent: Double) {
        self.callback = callback
        self.percent = percent
    }
}
