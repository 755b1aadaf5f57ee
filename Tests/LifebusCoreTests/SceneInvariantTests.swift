@testable import LifebusCore
import LifebusLifecycle
import LifecycleContract
import PropertyBased
import Testing

/// Random event sequences with scene apps (one window, several windows, a background mode) beside an app-delegate
/// app, scene events included: the device's invariants (asserted after every input) and the caller-visible ones
/// hold after every step, every event is answered and every scene callback sent is answered or its app ended.
@Suite("scene invariants under random event sequences")
struct SceneInvariantTests {
    static let apps: [(AppID, AppFlags)] = [
        ("S", AppFlags(adoptsScenes: true)),
        ("W", AppFlags(adoptsScenes: true, supportsMultipleScenes: true)),
        ("X", AppFlags(backgroundModes: ["audio"], adoptsScenes: true, supportsMultipleScenes: true)),
        ("A", AppFlags()),
    ]

    /// Decodes one random number into a step, scene events weighed as heavily as the rest.
    static func step(_ n: Int) -> Step {
        let (app, flags) = apps[(n / 32) % apps.count]
        let parameter = n / 128
        let scene = SceneID(UInt32(parameter % 4 + 1))
        switch n % 32 {
        case 0, 1: return .connect(app, flags)
        case 2: return .restores(app, "{\"n\":\(parameter)}")
        case 3, 4: return .fire(.scene(.open(app, parameter % 2 == 0 ? .none : SceneConnectionOptions(
            urlContexts: ["app://\(parameter)"]))))
        case 5: return .fire(.scene(.close(app, parameter % 5 == 0 ? nil : scene)))
        case 6, 7: return .fire(.scene(.reclaim(app, scene)))
        case 8, 9: return .fire(.scene(.reconnect(app, SceneSessionID(UInt32(parameter % 4 + 1)))))
        case 10: return .fire(.scene(.focus(app, scene)))
        case 11: return .fire(.call(.ring))
        case 12: return .fire(.call(.answer))
        case 13: return .fire(.call(.end))
        case 14: return .fire(.sms(AlertAction.allCases[parameter % 4]))
        case 15: return .fire(.sleep)
        case 16: return .fire(.wake)
        case 17, 18: return .fire(.home)
        case 19, 20: return .fire(.launch(app, options: parameter % 3 == 0 ? SceneConnectionOptions(
            urlContexts: ["app://launch"]) : nil))
        case 21: return .fire(.memoryWarning(parameter % 2 == 0 ? .warning : .critical))
        case 22: return .fire(.terminate(app, byUser: parameter % 2 == 0))
        case 23: return .hold(app)
        case 24, 25: return .release(app)
        case 26: return .crash(app)
        case 27: return .beginTask(app, UInt64(parameter % 3))
        case 28: return .endTask(app, UInt64(parameter % 3))
        default: return .elapse(.milliseconds(parameter * 997))
        }
    }

    @Test("every invariant holds after every step of scene apps, under every profile", arguments: Profile.allCases)
    func invariantsHold(profile: Profile) async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...4095).array(of: 1...80)) { numbers in
            var harness = Harness(profile: profile)
            var trace: [String] = []
            for number in numbers {
                let step = Self.step(number)
                trace.append(step.description)
                let start = harness.journal.count
                harness.run(step)
                var problems = InvariantTests.violations(harness, since: start, profile: profile)
                problems += harness.device.invariantViolations
                #expect(problems.isEmpty, "after \(trace): \(problems)")
                if !problems.isEmpty {
                    return
                }
            }
            for (app, _) in Self.apps {
                harness.run(.release(app))
            }
            harness.elapse(.seconds(1_000))
            let sends = harness.journal.filter { if case .sendCallback = $0 { true } else { false } }.count
            let ends = harness.journal.filter { if case .record(let t) = $0 { t.callback != nil } else { false } }.count
            #expect(sends == ends, "every callback sent is answered or its app ended; after \(trace)")
            #expect(harness.device.unansweredEventCount == 0, "every event answered; after \(trace)")
            #expect(harness.device.armedTimerCount == 0, "no timer left; after \(trace)")
        }
    }

    @Test("a corrupted scene book is caught")
    func corruptedBooksAreCaught() {
        var harness = Harness(profile: .ios17)
        harness.run(.connect("W", AppFlags(adoptsScenes: true, supportsMultipleScenes: true)))
        harness.run(.fire(.scene(.open("W", .none))))
        #expect(harness.device.invariantViolations.isEmpty)
        let corruptions: [(String, (inout SceneBook) -> Void)] = [
            ("two active scenes", { $0.sessions[0].state = .foregroundActive }),
            ("a scene without a state", { $0.sessions[0].state = nil }),
            ("sessions out of order", { $0.sessions.swapAt(0, 1) }),
            ("a scene id not given yet", { $0.lastScene = 1 }),
            ("a focus on no session", { $0.focus = SceneSessionID(9) }),
            ("a discarded live session", { $0.discarded = [$0.sessions[0].id] }),
            ("a restore with no scene", { $0.sessions[0].scene = nil; $0.sessions[0].state = nil
                $0.sessions[0].restorePending = true }),
        ]
        for (what, corrupt) in corruptions {
            var device = harness.device
            corrupt(&device.apps[0].scenes)
            #expect(!device.invariantViolations.isEmpty, "\(what) is not caught")
        }
        var derived = harness.device
        derived.apps[0].state = .inactive
        #expect(derived.invariantViolations.contains { $0.contains("its scenes say active") })
        var legacy = harness.device
        legacy.apps[0].flags.adoptsScenes = false
        #expect(legacy.invariantViolations.contains { $0.contains("does not adopt scenes") })
    }
}
