import LifebusCore
public import LifebusLifecycle
import LifebusProtocol
public import LifebusScenario

/// Random legal step sequences for `lifebus run --random`: one seed, one sequence, on every machine.
///
/// At each step it lists every step the fuzzer knows — every form of every `FireEvent` its declaration lists, with
/// the declared weight (`launch` as `launch` or `relaunch`), a crash (`kill`), clock advances — asks the device
/// model (`DeviceModel`, the core's `Device`) which of them it accepts in its current state, and picks one of those
/// by weight with the seeded generator. The first steps launch every app. A value; its state is the generator's
/// and the model's.
public struct StepGenerator {
    private var random: SplitMix64
    private var model: DeviceModel

    /// The clock advances it picks from: within a callback budget, past it, past the background time.
    static let advances: [Duration] = [.milliseconds(250), .seconds(1), .seconds(5), .seconds(30), .seconds(200)]

    /// The background events it weighs: `fire bgtask APP ID` of the apps' task (`--fact task=ID`), pushes
    /// (`--fact pushes`; tapped: `--fact taps`), the device's conditions (`--fact processing=…`: `fire power …`,
    /// `fire network …`).
    private let task: String?
    private let pushes: Bool
    private let taps: Bool
    private let conditions: Bool

    /// `scenes`: the apps adopt scenes where the profile has them (`--fact scenes`).
    public init(seed: UInt64, profile: Profile, apps: [String], scenes: Bool = false) {
        self.init(seed: seed, profile: profile, apps: apps, facts: AppFacts(scenes: scenes))
    }

    /// The apps as `facts` say (`scenes`, `task`, `processing`, `pushes`, `taps`; the others are checked, not
    /// generated), on a device with `knobs` (the run's brokers').
    public init(seed: UInt64, profile: Profile, apps: [String], facts: AppFacts, knobs: DeviceKnobs = DeviceKnobs()) {
        random = SplitMix64(seed: seed)
        model = DeviceModel(profile: profile, apps: apps, facts: facts, knobs: knobs)
        task = facts.task?.identifier
        pushes = facts.pushes
        taps = facts.taps
        conditions = facts.processing != nil
    }

    /// `count` steps: first a `launch` of each app not yet launched, then random legal steps.
    public mutating func steps(_ count: Int) -> [ScenarioStep] {
        (0..<count).compactMap { _ in next() }
    }

    /// The next step; `nil` only when the model accepts nothing at all (not with at least one app).
    public mutating func next() -> ScenarioStep? {
        if let first = model.apps.first(where: { !model.launched.contains($0) }) {
            let launch = ScenarioStep.launch(first.rawValue)
            if model.apply(launch) { return Self.settled(launch, model: model) }
        }
        let legal = candidates().filter { model.accepts($0.step) }
        let total = legal.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        var pick = random.below(total)
        guard let step = legal.first(where: { _, weight in
            pick -= weight
            return pick < 0
        })?.step else { return nil }
        _ = model.apply(step)
        return Self.settled(step, model: model)
    }

    /// `launch` and `relaunch` wait until the app is active; where the launch leaves it elsewhere (behind an alert
    /// on screen), the same event as a plain `fire: launch ID`, which waits only for the event's transitions.
    private static func settled(_ step: ScenarioStep, model: DeviceModel) -> ScenarioStep {
        switch step {
        case .launch(let app), .relaunch(let app):
            model.state(of: AppID(app)) == .active ? step : .fire(FireParams(event: .launch, app: app))
        default:
            step
        }
    }

    /// Every step the fuzzer could take now, legal or not, with its weight, in a fixed order (so the seed decides
    /// the pick; the order and the weights are those of `FireEvent.allCases` and each declaration's `forms`): every
    /// form of every event of the device, then for each app every form of every event naming an app (`launch` as
    /// `launch` or `relaunch`) and a crash (`kill`), then the clock advances. Interruptions an app lives through
    /// weigh more than the ends of apps (a kill, a terminate, a critical warning), and bringing an ended app back
    /// weighs most, so runs keep apps in front to interrupt.
    private func candidates() -> [(step: ScenarioStep, weight: Int)] {
        var steps = Self.weighedForms(of: .device, app: "").map { (ScenarioStep.fire($0), $1) }
        steps += conditionForms().map { (.fire($0), $1) }
        for app in model.apps.map(\.rawValue) {
            steps += Self.weighedForms(of: .app, app: app).map { (step($0), $1) }
            steps += sceneForms(of: AppID(app)).map { (.fire($0), $1) }
            steps += backgroundForms(of: app).map { (.fire($0), $1) }
            steps.append((.kill(ScenarioKill(app: app)), 1))
        }
        steps += Self.advances.map { (.advance($0), 1) }
        return steps
    }

    /// The forms the fuzzer picks of every event with `target`, with their weights. The default action is left
    /// implicit, as `lifebus fire call` sends it.
    private static func weighedForms(of target: FireEvent.Declaration.Target, app: String) -> [(FireParams, Int)] {
        // A scene event names a scene or session of the app's: `sceneForms` makes those from the model; the
        // background events are weighed only with their facts (`backgroundForms`), so seeds without them keep their
        // steps.
        let own: Set<FireEvent> = [.scene, .bgtask, .push, .power, .network]
        return FireEvent.allCases.filter { $0.declaration.target == target && !own.contains($0) }.flatMap { event in
            event.declaration.forms.filter { $0.fuzzWeight > 0 }.map { form in
                var params = FireParams(event, form.detail, app: app)
                if params.action == event.declaration.actions.first { params.action = nil }
                return (params, form.fuzzWeight)
            }
        }
    }

    /// The `scene` events the app could take now, each form with its declared weight: `open`, and per session
    /// `close`, `reclaim`, `focus` of its connected scene or `reconnect` of a session without one. Empty for an
    /// app without sessions (an app-delegate app, or one not running). The device model refuses the illegal ones.
    private func sceneForms(of app: AppID) -> [(FireParams, Int)] {
        let sessions = model.sessions(of: app)
        guard !sessions.isEmpty else { return [] }
        var forms: [(FireParams, Int)] = []
        for form in FireEvent.scene.declaration.forms where form.fuzzWeight > 0 {
            guard case .action(let action) = form.detail else { continue }
            let params = FireParams(.scene, form.detail, app: app.rawValue)
            switch action {
            case .open:
                forms.append((params, form.fuzzWeight))
            case .reconnect:
                for session in sessions where session.scene == nil {
                    var reconnect = params
                    reconnect.session = session.session
                    forms.append((reconnect, form.fuzzWeight))
                }
            default:
                for scene in sessions.compactMap(\.scene) {
                    var named = params
                    named.scene = scene
                    forms.append((named, form.fuzzWeight))
                }
            }
        }
        return forms
    }

    /// The background events of `app` the facts ask for, each form with its declared weight: `bgtask APP ID` (its
    /// `run` and `cancel`) of the apps' task, and `push APP` (silent and `--alert` with `pushes`, `--tap` with `taps`).
    /// The device model refuses the illegal ones (no such task pending or running, a profile without them, a tap on
    /// the lock screen).
    private func backgroundForms(of app: String) -> [(FireParams, Int)] {
        var events: [FireEvent] = []
        if task != nil { events.append(.bgtask) }
        if pushes || taps { events.append(.push) }
        return events.flatMap { event in
            event.declaration.forms.filter { form in
                guard form.fuzzWeight > 0, event == .push else { return form.fuzzWeight > 0 }
                return form.detail == .action(.tap) ? taps : pushes
            }.map { form in
                var params = FireParams(event, form.detail, app: app)
                if params.action == event.declaration.actions.first { params.action = nil }
                if event == .bgtask { params.identifier = task }
                return (params, form.fuzzWeight)
            }
        }
    }

    /// The device's conditions the facts ask for (`--fact processing=…`), each form with its declared weight: `power
    /// battery` while plugged in, `power external` on the battery, `network offline` while online, `network online`
    /// while offline (a form that changes nothing is not drawn).
    private func conditionForms() -> [(FireParams, Int)] {
        guard conditions else { return [] }
        let now = model.conditions
        return [FireEvent.power, .network].flatMap { event in
            event.declaration.forms.filter { form in
                guard form.fuzzWeight > 0, case .action(let action) = form.detail else { return false }
                return action.rawValue != now.power.rawValue && action.rawValue != now.network.rawValue
            }.map { (FireParams(event, $0.detail, app: ""), $0.fuzzWeight) }
        }
    }

    /// The step that fires `params`: a `launch` is the scenario's `launch` (or `relaunch` of an app launched
    /// before), which waits until the app is active.
    private func step(_ params: FireParams) -> ScenarioStep {
        guard params.event == .launch, let app = params.app else { return .fire(params) }
        return model.launched.contains(AppID(app)) ? .relaunch(app) : .launch(app)
    }
}
