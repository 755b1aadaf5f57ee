import LifebusCore
import LifebusLifecycle

/// Drives 1,000 apps with a seeded random mix of controller events through one `Device`, answering
/// every callback as a well-behaved app would, starting processes when asked and reporting kills as
/// exits; prints inputs per second and heap allocations per input.
struct CoreBenchmark {
    static let appCount = 1_000

    var device = Device(configuration: DeviceConfiguration(profile: .ios7))
    var random = SplitMix64(seed: 0x11FE_B005)
    var now = Instant.zero
    var actions: [Action] = []
    /// Inputs the apps and the system owe the device, performed before the next controller event.
    var owed: [Input] = []
    var timers: [TimerID: Instant] = [:]
    var lastEvent: UInt64 = 0
    var inputs = 0
    var callbacks = 0
    var completed = 0
    var rejected = 0
    let ids: [AppID] = (0..<appCount).map { AppID("app.\($0)") }

    /// `LifebusCoreBench [inputs]` prints the table; `--raw N` only runs N inputs (for the allocation probe).
    static func main(arguments: [String]) {
        if arguments.count == 3, arguments[1] == "--raw", let count = Int(arguments[2]) {
            var probe = CoreBenchmark()
            probe.connectAll()
            probe.run(inputs: count)
            return
        }
        let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 2_000_000
        var warmup = CoreBenchmark()
        warmup.connectAll()
        warmup.run(inputs: 100_000)
        var bench = CoreBenchmark()
        bench.connectAll()
        let start = ContinuousClock.now
        bench.run(inputs: count)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let allocations: String
        switch AllocationProbe.allocationsPerInput() {
        case .success(let perInput): allocations = format(perInput, 3)
        case .failure(let failure): allocations = "n/a (\(failure.reason))"
        }
        print("LifebusCore benchmark: \(appCount) apps, ios7, seeded random event mix, one core")
        print("| inputs | seconds | inputs/s | allocations/input |")
        print("|---:|---:|---:|---:|")
        print("| \(bench.inputs) | \(format(seconds, 3)) | \(Int(Double(bench.inputs) / seconds)) | \(allocations) |")
        print("mix: \(bench.callbacks) callbacks sent and answered, \(bench.completed) events completed, "
            + "\(bench.rejected) inputs rejected (e.g. activate of an app not running)")
        print("allocations/input: valgrind's 'total heap usage' allocs for \(AllocationProbe.largeRun) minus "
            + "\(AllocationProbe.smallRun) inputs, divided by the difference (start-up cancels out)")
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int(value * scale + 0.5)
        let whole = String(scaled / Int(scale))
        let fraction = String(scaled % Int(scale) + Int(scale)).dropFirst()
        return "\(whole).\(fraction)"
    }

    mutating func connectAll() {
        for id in ids {
            give(.appConnected(id, AppFlags(backgroundModes: random.below(10) == 0 ? ["audio"] : []), pid: nil))
            settle()
        }
    }

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
            case .sendCallback(let app, let id, let callback, _, _, _):
                callbacks += 1
                owed.append(.callbackAnswered(app, id, handlerDuration: nil))
                if callback == .willTerminate {
                    owed.insert(.appDisconnected(app), at: owed.count - 1)
                }
            case .armTimer(let id, let deadline):
                timers[id] = deadline
            case .cancelTimer(let id):
                timers[id] = nil
            case .startProcess(let app):
                owed.append(.appConnected(app, AppFlags(), pid: nil))
            case .kill(let app, _):
                owed.append(.processExited(app, .signaled(9)))
            case .completeEvent:
                completed += 1
            case .reject:
                rejected += 1
            case .backgroundTaskExpiring, .record, .stateChanged:
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
        let due = timers.filter { $0.value <= now }.keys.sorted { $0.rawValue < $1.rawValue }
        for id in due where timers.removeValue(forKey: id) != nil {
            give(.timerFired(id))
            settle()
        }
    }
}
