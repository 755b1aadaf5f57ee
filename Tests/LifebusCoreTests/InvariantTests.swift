import LifebusCore
import LifebusLifecycle
import LifecycleContract
import PropertyBased
import Testing

/// Random event sequences for four apps (plain, exits on suspend, audio background mode, background
/// launch; each permitted one BGTask identifier), with the device's invariants checked after every step and after
/// draining all time.
@Suite("invariants under random event sequences")
struct InvariantTests {
    static let apps: [(AppID, AppFlags)] = [
        ("A", AppFlags(permittedTaskIdentifiers: ["t"])),
        ("B", AppFlags(exitsOnSuspend: true, permittedTaskIdentifiers: ["t"])),
        ("C", AppFlags(backgroundModes: ["audio"], permittedTaskIdentifiers: ["t"])),
        ("D", AppFlags(launchInBackground: true, permittedTaskIdentifiers: ["t"])),
    ]

    /// Decodes one random number into a step: the low bits choose the operation, the next the app,
    /// the rest a parameter.
    static func step(_ n: Int) -> Step {
        let (app, flags) = apps[(n / 32) % apps.count]
        let parameter = n / 128
        switch n % 32 {
        case 0, 1, 2: return .connect(app, flags)
        case 3: return .fire(.call(.ring))
        case 4: return .fire(.call(.answer))
        case 5: return .fire(.call(.decline))
        case 6: return .fire(.call(.end))
        case 7: return .fire(.sms(AlertAction.allCases[parameter % 4]))
        case 8: return .fire(.calendar(AlertAction.allCases[parameter % 4]))
        case 9: return .fire(.sleep)
        case 10: return .fire(.wake)
        case 11, 12: return .fire(.home)
        case 13, 14: return .fire(.launch(app))
        case 15: return .fire(.activate(app))
        case 16: return .fire(.memoryWarning(parameter % 2 == 0 ? .warning : .critical))
        case 17: return .fire(.terminate(app, byUser: parameter % 2 == 0))
        case 18: return .hold(app)
        case 19, 20: return .release(app)
        case 21: return .crash(app)
        case 22: return .elapse(.milliseconds(parameter * 997))
        case 23: return .beginTask(app, UInt64(parameter % 3))
        case 24: return .endTask(app, UInt64(parameter % 3))
        case 25: return .footprint(app, UInt64(parameter))
        case 26: return .bogusAnswer(app)
        case 27: return .linger(app)
        case 28: return .noSpawn(app)
        case 29: return backgroundTaskStep(app, parameter)
        case 30: return .fire(.backgroundTask(app, identifier: "t", action: parameter % 2 == 0 ? .run : .cancel))
        case 31:
            return .fire(.push(app, PushNotification(contentAvailable: parameter % 3 != 0, alert: parameter % 3 == 0)))
        default: return .elapse(.seconds(parameter % 300))
        }
    }

    /// A BGTaskScheduler step of the app's one permitted identifier — register, submit (of a kind, due at once or
    /// later, requiring power or the network or neither) or complete — or a change of the device's conditions.
    static func backgroundTaskStep(_ app: AppID, _ parameter: Int) -> Step {
        switch parameter % 5 {
        case 0: .registerTask(app, "t")
        case 1:
            .submitTask(app, "t", BackgroundTaskKind.allCases[(parameter / 5) % 3],
                        after: parameter % 2 == 0 ? nil : .seconds(parameter % 90),
                        requires: [[], [.externalPower], [.networkConnectivity]][(parameter / 15) % 3])
        case 2: .completeTask(app, "t", success: parameter % 2 == 0)
        case 3: .fire(.power(parameter % 2 == 0 ? .battery : .external))
        default: .fire(.network(parameter % 2 == 0 ? .offline : .online))
        }
    }

    /// The random run that found it (ios27, shrunk): four silent pushes to an app that never gets through its launch
    /// used to leave the rate window's timer re-armed every hour for ever.
    @Test("under ios27, pushes to an app that cannot launch leave no timer behind")
    func pushesToAnAppThatCannotLaunchLeaveNoTimer() {
        var harness = Harness(profile: .ios27)
        for number in [607, 3679, 2655, 2143] {
            harness.run(Self.step(number))
        }
        for (app, _) in Self.apps {
            harness.run(.release(app))
        }
        harness.elapse(.seconds(3_600))
        #expect(harness.device.armedTimerCount == 0 && harness.device.earliestDeadline == nil)
    }

    @Test("every invariant holds after every step, under every profile", arguments: Profile.allCases)
    func invariantsHold(profile: Profile) async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...4095).array(of: 1...80)) { numbers in
            var harness = Harness(profile: profile)
            var trace: [String] = []
            for number in numbers {
                let step = Self.step(number)
                trace.append(step.description)
                let start = harness.journal.count
                harness.run(step)
                let problems = Self.violations(harness, since: start, profile: profile)
                #expect(problems.isEmpty, "after \(trace): \(problems)")
                if !problems.isEmpty {
                    return
                }
            }
            for (app, _) in Self.apps {
                harness.run(.release(app))
            }
            // Deferred pushes leave 3 an hour (at most 80 steps: under 30 hours), each hour's window a timer.
            for _ in 0..<30 where harness.device.armedTimerCount > 0 {
                harness.elapse(.seconds(3_600))
            }
            let sends = harness.journal.filter { if case .sendCallback = $0 { true } else { false } }.count
            let ends = harness.journal.filter { if case .record(let t) = $0 { t.callback != nil } else { false } }.count
            #expect(sends == ends, "every callback sent is answered or its app ended; after \(trace)")
            #expect(harness.outstanding.isEmpty, "after \(trace)")
            #expect(harness.device.unansweredEventCount == 0, "every event answered; after \(trace)")
            #expect(harness.device.armedTimerCount == 0 && harness.device.earliestDeadline == nil,
                    "no timer left; after \(trace)")
            let answers = harness.journal.compactMap { action -> EventID? in
                switch action {
                case .completeEvent(let id): id
                case .reject(let rejection): rejection.event
                default: nil
                }
            }
            #expect(answers.count == Set(answers).count, "each event answered once; after \(trace)")
            #expect(answers.count == Int(harness.lastEvent), "each event answered; after \(trace)")
        }
    }

    /// The invariants, checked against the device's snapshot and the actions since `start`.
    static func violations(_ harness: Harness, since start: Int, profile: Profile) -> [String] {
        var problems = harness.violations
        let snapshots = harness.device.appSnapshots
        if snapshots.filter({ $0.state.isForeground }).count > 1 {
            problems.append("more than one foreground app")
        }
        for app in snapshots {
            let canBackground = profile.hasMultitasking && !app.flags.exitsOnSuspend
            if !canBackground && (app.state == .background || app.state == .suspended) {
                problems.append("\(app.id) is \(app.state) under \(profile)")
            }
            if app.state.isRunning && !app.hasProcess {
                problems.append("\(app.id) is \(app.state) without a process")
            }
            if harness.states[app.id, default: .notRunning] != app.state {
                problems.append("\(app.id) is \(app.state) but its reported state changes end at another")
            }
            if app.outstandingCallbackID != harness.outstanding[app.id]?.0 {
                problems.append("\(app.id)'s outstanding callback differs from what was sent")
            }
        }
        for case .record(let t) in harness.journal[start...] {
            let wakes = t.callback == .willEnterForeground || harness.flags[t.app]?.adoptsScenes == true
            if t.from == .suspended && t.callback != nil && !wakes {
                problems.append("\(t.callback!) sent to suspended \(t.app)")
            }
            if t.from == .notRunning && t.callback != nil && t.callback != .didFinishLaunching {
                problems.append("\(t.callback!) sent to not-running \(t.app)")
            }
        }
        let owners = harness.device.timerOwners
        let earliest = harness.device.earliestDeadline
        // Every timer is an app's but the protected-data lock, armed only while the device is locked.
        let unowned = harness.device.armedTimerCount - owners.count
        if unowned < 0 || unowned > (harness.device.isLocked ? 1 : 0)
            || (harness.device.armedTimerCount == 0) != (earliest == nil)
        {
            problems.append("the device's timers disagree with its count or its earliest deadline")
        }
        if let earliest, earliest < harness.now {
            problems.append("a timer was due at \(earliest) and did not fire by \(harness.now)")
        }
        for owner in owners {
            guard let app = harness.device.snapshot(of: owner) else {
                problems.append("a timer belongs to \(owner), which the device does not know")
                continue
            }
            let waitsForTheApp = !harness.device.backgroundTasks(of: owner).isEmpty
                || harness.device.deferredPushCount(of: owner) > 0  // a task's due date, the push window
            if !app.hasProcess && !app.isAwaitingLaunch && !waitsForTheApp {
                problems.append("a timer outlives \(owner)")
            }
        }
        return problems
    }
}
