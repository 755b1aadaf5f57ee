import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario

/// The fuzzer's oracle of what is legal now: `LifebusCore`'s `Device` (the lifecycle table itself, not a copy of
/// it), driven the way a manual-clock broker with well-behaved installed apps drives it — every callback answered
/// at once, every process the device starts connecting at once, an app's process gone after it answered
/// `willTerminate` or was killed, timers firing only when an `advance` passes them; with a `task` fact, each app
/// registers and submits its task while it launches (before it answers `didFinishLaunching`, as `FeedReader` does)
/// and completes it when it runs (`success: false` once its expiration handler was called); with a `processing` fact,
/// that task too, after the refresh one.
///
/// A value: `apply(_:)` tries a step on a copy and keeps it only when the device accepts it. Invariants: `now` only
/// grows; the device keeps its own timers, and `advance` fires each one due at its own deadline.
struct DeviceModel {
    private(set) var device: Device
    /// The apps the run installed, in order; the ones a step may name.
    let apps: [AppID]
    /// Apps that were launched at least once (a later launch is a `relaunch`).
    private(set) var launched: Set<AppID> = []
    private var now = Instant.zero
    private var nextEvent: UInt64 = 1
    private var nextPid: Int32 = 100
    /// What the apps say in hello: scenes (and several) when they adopt them and the profile has them; their task.
    private let flags: AppFlags
    /// The task every app registers and submits while it launches (`AppFacts.task`).
    private let task: (identifier: String, after: Duration?)?
    /// The processing task every app registers and submits after it (`AppFacts.processing`).
    private let processing: ProcessingTaskFact?

    /// `scenes`: the apps adopt scenes where `profile` has them (as `Examples/manifests/scene-app.sh` does); `task`:
    /// they register and submit that `appRefresh` task while they launch; `knobs`: the device's choices where Apple
    /// is silent, as the run's brokers are started with them.
    init(
        profile: Profile, apps: [String], scenes: Bool = false, task: (identifier: String, after: Duration?)? = nil,
        processing: ProcessingTaskFact? = nil, knobs: DeviceKnobs = DeviceKnobs()
    ) {
        device = Device(configuration: DeviceConfiguration(profile: profile, knobs: knobs))
        self.apps = apps.map { AppID($0) }
        let adopts = scenes && profile.sceneSupport != .none
        flags = AppFlags(
            adoptsScenes: adopts, supportsMultipleScenes: adopts,
            permittedTaskIdentifiers: (task.map { [$0.identifier] } ?? []) + (processing.map { [$0.identifier] } ?? []))
        self.task = task
        self.processing = processing
    }

    /// The model's facts as `AppFacts` give them, on a device with `knobs`.
    init(profile: Profile, apps: [String], facts: AppFacts, knobs: DeviceKnobs = DeviceKnobs()) {
        self.init(profile: profile, apps: apps, scenes: facts.scenes, task: facts.task, processing: facts.processing,
                  knobs: knobs)
    }

    /// The scene sessions of `app` in the model, oldest first.
    func sessions(of app: AppID) -> [SceneSessionStatus] {
        device.sessions(of: app)
    }

    /// Carries out `step` if the device accepts it; `false` (and the model unchanged) when it refuses it, or when
    /// the step is not one the fuzzer generates (`wait`, `expect`, `note` change nothing and are accepted).
    mutating func apply(_ step: ScenarioStep) -> Bool {
        var trial = self
        guard trial.perform(step) else { return false }
        self = trial
        return true
    }

    /// Whether the device would accept `step` now (the model unchanged).
    func accepts(_ step: ScenarioStep) -> Bool {
        var trial = self
        return trial.perform(step)
    }

    /// The app's state in the model.
    func state(of app: AppID) -> LifecycleState {
        device.state(of: app)
    }

    private mutating func perform(_ step: ScenarioStep) -> Bool {
        switch step {
        case .launch(let app), .relaunch(let app):
            guard device.state(of: AppID(app)) == .notRunning else { return false }
            return fire(.launch(AppID(app)))
        case .fire(let params):
            return fire(params.controllerEvent)
        case .advance(let duration):
            advance(by: duration)
            return true
        case .kill(let kill):
            guard device.snapshot(of: AppID(kill.app))?.hasProcess == true else { return false }
            feed(.processExited(AppID(kill.app), .signaled(9)))
            return true
        case .wait, .expect, .note:
            return true
        }
    }

    private mutating func fire(_ event: ControllerEvent) -> Bool {
        let id = EventID(nextEvent)
        nextEvent += 1
        if case .launch(let app, _) = event { launched.insert(app) }
        return !feed(.fire(id, event)).contains { $0.event == id }
    }

    /// Fires every timer due by `now + duration`, each at its own deadline, then moves `now` there.
    private mutating func advance(by duration: Duration) {
        let target = now + duration
        while let deadline = device.earliestDeadline, deadline <= target {
            now = max(now, deadline)
            feed(.deadlineReached)
        }
        now = target
    }

    /// Hands `input` to the device and plays the apps' and processes' part until nothing is left to do; returns the
    /// rejections the device made on the way.
    @discardableResult
    private mutating func feed(_ input: Input) -> [Rejection] {
        var queue = [input]
        var rejections: [Rejection] = []
        while !queue.isEmpty {
            for action in device.handle(queue.removeFirst(), at: now) {
                switch action {
                case .sendCallback(let app, let callback, let name, _, _, _, let context):
                    queue += answers(app, callback, name, task: context?.task?.identifier)
                case .startProcess(let app):
                    nextPid += 1
                    launched.insert(app)
                    queue.append(.appConnected(app, flags, pid: nextPid))
                case .kill(let app, _):
                    queue.append(.processExited(app, .signaled(9)))
                case .reject(let rejection):
                    rejections.append(rejection)
                case .stateChanged, .sceneChanged, .backgroundTaskExpiring, .record, .completeEvent, .taskRecord,
                    .pushRecord, .protectedData:
                    break
                }
            }
        }
        return rejections
    }

    /// A well-behaved app's inputs for the callback `name` (about the `BGTask` `identifier`, if any): its answer,
    /// with what the app does around it — its tasks registered and submitted while it launches, each completed when
    /// it runs or expires; its end after `willTerminate`.
    private func answers(
        _ app: AppID, _ callback: CallbackID, _ name: LifecycleCallback, task identifier: String?
    ) -> [Input] {
        let answer = Input.callbackAnswered(app, callback, handlerDuration: nil)
        switch name {
        case .willTerminate:
            return [answer, .processExited(app, .exited(0))]
        case .didFinishLaunching:
            return submissions(app) + [answer]
        case .performBackgroundTask, .backgroundTaskWillExpire:
            guard let identifier = identifier ?? task?.identifier else { return [answer] }
            return [answer, .backgroundTaskCompleted(
                app, identifier: identifier, success: name == .performBackgroundTask)]
        default:
            return [answer]
        }
    }

    /// The registrations and submissions of the facts' tasks, the refresh one first.
    private func submissions(_ app: AppID) -> [Input] {
        var inputs: [Input] = []
        if let task {
            inputs += [.registerBackgroundTask(app, identifier: task.identifier), .submitBackgroundTask(
                app, BackgroundTaskRequest(
                    identifier: task.identifier, kind: .appRefresh, earliestBegin: task.after.map { now + $0 }))]
        }
        if let processing {
            inputs += [.registerBackgroundTask(app, identifier: processing.identifier), .submitBackgroundTask(
                app, BackgroundTaskRequest(
                    identifier: processing.identifier, kind: .processing,
                    earliestBegin: processing.after.map { now + $0 },
                    requiresExternalPower: processing.requiresExternalPower,
                    requiresNetworkConnectivity: processing.requiresNetworkConnectivity))]
        }
        return inputs
    }

    /// The device's power and network now.
    var conditions: DeviceConditions {
        device.deviceConditions
    }
}
