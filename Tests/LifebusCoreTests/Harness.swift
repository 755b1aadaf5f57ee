import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// A device on a virtual clock with well-behaved apps: each answers its callbacks at once (unless held),
/// exits after answering `willTerminate` (unless lingering) or being killed, and starts when asked. The core's unit
/// tests drive it, and `LifecycleTableTests` plays through it the rows of `Protocol/lifecycle.md` the kit cannot run
/// (`LifecycleTable.driverRows`: process starts, kills, background tasks, raw answers; which and why in the
/// integration `RowRunner`'s doc).
struct Harness {
    var device: Device
    var now = Instant.zero
    var outstanding: [AppID: (CallbackID, LifecycleCallback)] = [:]
    /// Each app's state as the `stateChanged` actions tell it.
    var states: [AppID: LifecycleState] = [:]
    var held: Set<AppID> = []
    var lingering: Set<AppID> = []
    var unspawnable: Set<AppID> = []
    var flags: [AppID: AppFlags] = [:]
    var spawns: [AppID] = []
    var exits: [AppID] = []
    var journal: [Action] = []
    var lastEvent: UInt64 = 0
    /// What each app answers `stateRestorationActivity` with (`restores` steps); none: no payload.
    var restorations: [AppID: String] = [:]
    /// Each connected scene's state as the `sceneChanged` actions tell it.
    var sceneStates: [AppID: [SceneID: SceneState]] = [:]
    /// The `UIApplication` notifications the callbacks sent so far carried, in order, as `APP notification`.
    var posts: [String] = []
    /// Violations of the caller-visible protocol seen so far (a second outstanding callback, a state change that
    /// does not follow the last one).
    var violations: [String] = []

    init(_ configuration: DeviceConfiguration) {
        device = Device(configuration: configuration)
    }

    init(profile: Profile) {
        self.init(DeviceConfiguration(profile: profile))
    }

    mutating func input(_ input: Input) {
        let actions = device.handle(input, at: now)
        journal += actions
        for action in actions {
            observe(action)
        }
    }

    private mutating func observe(_ action: Action) {
        switch action {
        case .sendCallback(let app, let id, let callback, let target, _, _, let context):
            if let posted = context?.posts {
                posts.append("\(app) \(posted)")
            }
            if let ref = context?.scene, sceneStates[app]?[ref.scene] ?? .unattached != context?.sceneState {
                let state = context?.sceneState.map { "\($0)" } ?? "nothing"
                violations.append("\(callback) sent to \(ref) for \(state), but its scene's changes say otherwise")
            }
            if outstanding[app] != nil {
                violations.append("second outstanding callback for \(app)")
            }
            if states[app, default: .notRunning] != target {
                violations.append("\(callback) sent to \(app) for \(target), but its state changes say otherwise")
            }
            outstanding[app] = (id, callback)
        case .stateChanged(let app, let from, let to, let at):
            if states[app, default: .notRunning] != from || from == to || at != now {
                let was = states[app, default: .notRunning]
                violations.append("\(app) reported \(from)→\(to) at \(at), but was \(was)")
            }
            states[app] = to
        case .record(let transition):
            if transition.callback != nil {
                outstanding[transition.app] = nil
            }
        case .kill(let app, _):
            exits.append(app)
        case .startProcess(let app):
            spawns.append(app)
        case .sceneChanged(let app, let ref, let from, let to, let at):
            let was = sceneStates[app]?[ref.scene] ?? .unattached
            if was != from || from == to || at != now {
                violations.append("\(ref) of \(app) reported \(from)→\(to) at \(at), but was \(was)")
            }
            sceneStates[app, default: [:]][ref.scene] = to == .unattached ? nil : to
        case .backgroundTaskExpiring, .completeEvent, .reject, .taskRecord, .pushRecord, .protectedData:
            break
        }
    }

    /// Lets apps answer, exit and start until nothing moves without time passing.
    mutating func pump() {
        while true {
            if !exits.isEmpty {
                let app = exits.removeFirst()
                input(.processExited(app, .signaled(9)))
                continue
            }
            if !spawns.isEmpty {
                let app = spawns.removeFirst()
                if !unspawnable.contains(app) {
                    input(.appConnected(app, flags[app] ?? AppFlags(), pid: nil))
                }
                continue
            }
            if let app = outstanding.keys.sorted().first(where: { !held.contains($0) }) {
                let (id, callback) = outstanding[app]!
                let payload = callback == .stateRestorationActivity ? restorations[app] : nil
                input(.callbackAnswered(app, id, handlerDuration: nil, restoration: payload))
                if callback == .willTerminate && !lingering.contains(app) {
                    input(.appDisconnected(app))
                }
                continue
            }
            return
        }
    }

    /// Moves the virtual clock forward, firing each due timer at its own deadline (the device's earliest first).
    mutating func elapse(_ duration: Duration) {
        let end = now + duration
        while let deadline = device.earliestDeadline, deadline <= end {
            #expect(deadline >= now, "the device's earliest deadline \(deadline) is before now, \(now)")
            now = max(now, deadline)
            input(.deadlineReached)
            pump()
        }
        now = end
    }

    @discardableResult
    mutating func fire(_ event: ControllerEvent) -> EventID {
        lastEvent += 1
        let id = EventID(lastEvent)
        input(.fire(id, event))
        return id
    }

    mutating func run(_ step: Step) {
        switch step {
        case .connect(let app, let appFlags):
            flags[app] = appFlags
            input(.appConnected(app, appFlags, pid: nil))
        case .fire(let event):
            fire(event)
        case .hold(let app):
            held.insert(app)
        case .release(let app):
            held.remove(app)
        case .crash(let app):
            input(.appDisconnected(app))
        case .linger(let app):
            lingering.insert(app)
        case .noSpawn(let app):
            unspawnable.insert(app)
        case .elapse(let duration):
            elapse(duration)
        case .beginTask(let app, let task):
            input(.backgroundTaskBegan(app, taskID: task))
        case .endTask(let app, let task):
            input(.backgroundTaskEnded(app, taskID: task))
        case .footprint(let app, let bytes):
            input(.memoryFootprint(app, bytes: bytes))
        case .bogusAnswer(let app):
            input(.callbackAnswered(app, CallbackID(999_999), handlerDuration: nil))
        case .restores(let app, let payload):
            restorations[app] = payload
        case .registerTask(let app, let identifier):
            input(.registerBackgroundTask(app, identifier: identifier))
        case .submitTask(let app, let identifier, let kind, let after, let requires):
            input(.submitBackgroundTask(app, BackgroundTaskRequest(
                identifier: identifier, kind: kind, earliestBegin: after.map { now + $0 },
                requiresExternalPower: requires.contains(.externalPower),
                requiresNetworkConnectivity: requires.contains(.networkConnectivity))))
        case .completeTask(let app, let identifier, let success):
            input(.backgroundTaskCompleted(app, identifier: identifier, success: success))
        }
        pump()
    }

    /// The journal from `start` in the tables' notation: transitions, kills, process starts, warnings,
    /// rejections; timers, sends and answers are left out (transitions imply them).
    func describe(from start: Int) -> [String] {
        journal[start...].compactMap { action in
            switch action {
            case .record(let t):
                if let scene = t.scene {
                    "\(t.app)/\(scene.ref.scene.number) \(t.callback?.rawValue ?? "-") "
                        + "\(scene.from)→\(scene.to) \(t.outcome)"
                } else {
                    "\(t.app) \(t.callback?.rawValue ?? "-") \(t.from)→\(t.to) \(t.outcome)"
                }
            case .kill(let app, let reason):
                "kill \(app) \(reason)"
            case .startProcess(let app):
                "start \(app)"
            case .backgroundTaskExpiring(let app, let task):
                "expiring \(app) \(task)"
            case .taskRecord(let task):
                "task \(task.app) \(task.identifier) \(task.event)" + (task.success.map { " \($0)" } ?? "")
            case .sendCallback(let app, _, let callback, _, _, _, let context?) where context.launchReason != nil:
                "launch \(app) \(callback) \(context.launchReason!)"
            case .sendCallback(let app, _, let callback, _, _, _, let context?) where context.launchOptions != nil:
                "launch \(app) \(callback) launchOptions" + (context.launchOptions!.url == nil ? "" : " url")
                    + (context.launchOptions!.remoteNotification == nil ? "" : " remoteNotification")
            case .pushRecord(let push):
                "push \(push.app) \(push.event)" + (push.result.map { " \($0)" } ?? "")
                    + (push.presentation.map { " \($0.summary)" } ?? "")
            case .protectedData(let available):
                "protected data \(available ? "available" : "unavailable")"
            case .reject(let rejection):
                "reject \(rejection.reason)"
            case .sendCallback, .completeEvent, .stateChanged, .sceneChanged:
                nil
            }
        }
    }

    /// Every app's state and the device's front app, lock and call, as one line.
    var situation: String {
        var parts: [String] = []
        for app in device.appSnapshots {
            parts.append("\(app.id)=\(app.state)")
            for session in device.sessions(of: app.id) {
                let scene = session.scene.map { "\($0.number):\(session.state!)" } ?? "-"
                parts.append("\(app.id).s\(session.session.number)=\(scene)\(session.hasRestoration ? "+saved" : "")")
            }
        }
        parts.append("front=\(device.foregroundApp?.rawValue ?? "-")")
        if device.isLocked {
            parts.append("locked")
        }
        if device.call != .none {
            parts.append("call=\(device.call)")
        }
        if !device.isProtectedDataAvailable {
            parts.append("dataLocked")
        }
        for app in device.appSnapshots {
            for task in device.backgroundTasks(of: app.id) {
                parts.append("\(app.id).\(task.request.identifier)=\(task.state)")
            }
        }
        if let alert = device.alert {
            parts.append("alert=\(alert)")
        }
        return parts.joined(separator: " ")
    }
}
