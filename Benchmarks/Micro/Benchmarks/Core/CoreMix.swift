import LifebusCore
import LifebusLifecycle

/// Drives 1,000 apps with a seeded random mix of controller events through one `Device`, answering
/// every callback as a well-behaved app would, starting processes when asked and reporting kills as
/// exits. Deterministic (seeded); `inputs` counts every input handed to the device, the apps' and the
/// system's answers included. Invariant: between calls of `run(inputs:)` nothing is owed but what the
/// last input's actions queued (`run` performs it first).
struct CoreMix {
    static let appCount = 1_000

    var device = Device(configuration: DeviceConfiguration(profile: .ios7))
    var random = SplitMix64(seed: 0x11FE_B005)
    var now = Instant.zero
    var actions: [Action] = []
    /// Inputs the apps and the system owe the device, performed before the next controller event.
    var owed: [Input] = []
    var lastEvent: UInt64 = 0
    var inputs = 0
    let ids: [AppID] = (0..<appCount).map { AppID("app.\($0)") }

    /// A device with every app connected and settled.
    static func connected() -> CoreMix {
        var mix = CoreMix()
        mix.connectAll()
        return mix
    }

    mutating func connectAll() {
        for id in ids {
            give(.appConnected(id, AppFlags(backgroundModes: random.below(10) == 0 ? ["audio"] : []), pid: nil))
            settle()
        }
    }

    /// Hands the device `target` more inputs.
    mutating func run(inputs target: Int) {
        let end = inputs + target
        while inputs < end {
            if !owed.isEmpty {
                give(owed.removeLast())
                continue
            }
            now = now + .milliseconds(1)
            if inputs & 255 == 0 {
                fireDueTimers()
            }
            give(randomInput())
        }
    }

    mutating func randomInput() -> Input {
        let app = ids[random.below(ids.count)]
        let roll = random.below(100)
        let event: ControllerEvent
        switch roll {
        case 0..<25: event = .activate(app)
        case 25..<40: event = .launch(app)
        case 40..<50: event = .home
        case 50..<54: event = .call(.ring)
        case 54..<57: event = .call(.decline)
        case 57..<59: event = .call(.answer)
        case 59..<61: event = .call(.end)
        case 61..<65: event = .sms(.show)
        case 65..<69: event = .sms(.dismiss)
        case 69..<72: event = .sleep
        case 72..<75: event = .wake
        case 75..<77: event = .terminate(app, byUser: roll == 76)
        case 77: event = .memoryWarning(.warning)
        case 78..<84: return .backgroundTaskBegan(app, taskID: UInt64(roll))
        case 84..<90: return .backgroundTaskEnded(app, taskID: UInt64(roll - 6))
        default: return .memoryFootprint(app, bytes: UInt64(random.below(1 << 30)))
        }
        lastEvent += 1
        return .fire(EventID(lastEvent), event)
    }

    /// Hands one input to the device and queues what the apps and the system do in response.
    mutating func give(_ input: Input) {
        inputs += 1
        actions.removeAll(keepingCapacity: true)
        device.handle(input, at: now, into: &actions)
        for action in actions {
            switch action {
            case .sendCallback(let app, let id, let callback, _, _, _, _):
                owed.append(.callbackAnswered(app, id, handlerDuration: nil))
                if callback == .willTerminate {
                    owed.insert(.appDisconnected(app), at: owed.count - 1)
                }
            case .startProcess(let app):
                owed.append(.appConnected(app, AppFlags(), pid: nil))
            case .kill(let app, _):
                owed.append(.processExited(app, .signaled(9)))
            case .completeEvent, .reject, .backgroundTaskExpiring, .record, .stateChanged, .sceneChanged, .taskRecord,
                .pushRecord, .protectedData:
                break
            }
        }
    }

    mutating func settle() {
        while !owed.isEmpty {
            give(owed.removeLast())
        }
    }

    mutating func fireDueTimers() {
        while let deadline = device.earliestDeadline, deadline <= now {
            give(.deadlineReached)
            settle()
        }
    }
}
