import LifebusFuzzing
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

/// The device's conditions fuzzed (`--fact processing=ID:1m:power:network`), against stand-in brokers that run the
/// app's processing task once it is due (a minute after the app's first launch): a correct one runs it only on a
/// locked device, plugged in and online, and keeps every invariant over a range of seeds that draw `power` and
/// `network`; one that ignores the power requirement is found, and shrunk to the steps that show it. Its reproducer
/// fails for that launch alone (`noTask`), not for the other callbacks the breaking step sends the app.
@Suite struct ProcessingStoryTests {
    private static let app = "com.example.FeedReader"
    private static let clean = "com.example.FeedReader.clean"
    private static let facts = AppFacts(processing: ProcessingTaskFact(
        identifier: clean, after: .seconds(60), requiresExternalPower: true, requiresNetworkConnectivity: true))
    private static let seeds = UInt64(1)...30

    private static func fuzzer(seed: UInt64) -> Fuzzer {
        Fuzzer(seed: seed, stepCount: 60, profile: .ios13, apps: [(app, .manifest(path: "/m/feedreader-cleans.json"))],
               facts: facts)
    }

    /// A broker whose app submits the task at its first launch and runs it (once) when it is due, the device locked,
    /// on external power (unless `ignoresPower`) and online.
    private static func broker(ignoresPower: Bool) -> Fuzzer.Execute {
        { steps in
            var now = Duration.zero
            var due: Duration?
            var locked = false
            var conditions = DeviceConditions()
            var ran = false
            return steps.enumerated().map { index, step in
                switch step {
                case .launch, .relaunch:
                    due = due ?? now + .seconds(60)
                case .advance(let duration):
                    now += duration
                case .fire(let params):
                    switch (params.event, params.action) {
                    case (.sleep, _): locked = true
                    case (.wake, _): locked = false
                    case (.power, let action?): conditions.power = PowerSource(rawValue: action.rawValue)!
                    case (.network, let action?): conditions.network = NetworkState(rawValue: action.rawValue)!
                    default: break
                    }
                default:
                    break
                }
                guard !ran, let due, now >= due, locked, ignoresPower || conditions.power == .external,
                      conditions.network == .online
                else { return [] }
                ran = true
                return [.task(BackgroundTaskRecord(
                    seq: Int64(index + 1), app: app, pid: 1, identifier: clean, kind: .processing, event: .launched,
                    success: nil, atMs: 0, wallMs: 0))]
            }
        }
    }

    /// `broker(ignoresPower:)` whose every step also sends the app a memory warning: callbacks that are not the
    /// violation.
    private static func noisyBroker(ignoresPower: Bool) -> Fuzzer.Execute {
        { steps in
            try broker(ignoresPower: ignoresPower)(steps).enumerated().map { index, entries in
                [.transition(TransitionRecord(
                    seq: Int64(index + 1), app: app, pid: 1, callback: .didReceiveMemoryWarning,
                    cause: EventCause(eventID: Int64(index + 1), event: "memory-warning"), from: .background,
                    to: .background, firedMs: 0, sentMs: 0, answeredMs: 0, handlerMs: 0, budgetMs: 5000, outcome: .ok,
                    wallMs: 0))] + entries
            }
        }
    }

    /// The first seed whose run `execute` breaks an invariant in.
    private static func firstFailure(_ execute: @escaping Fuzzer.Execute) -> Fuzzer.Report? {
        seeds.lazy.compactMap { seed -> Fuzzer.Report? in
            let report = try? fuzzer(seed: seed).run(execute: execute)
            return report?.failure == nil ? nil : report
        }.first
    }

    /// How many steps the scope of `reproducer`'s final `expect` holds: those after the `expect` before it (the
    /// breaking step, or a `fire` and the `advance` it hands over to).
    private static func tail(of reproducer: Scenario) -> Int {
        let previous = reproducer.steps.dropLast().lastIndex { if case .expect = $0 { true } else { false } }
        return reproducer.steps.count - 2 - (previous ?? 0)
    }

    /// The entries `execute` journals in the scope of `reproducer`'s final `expect` (its steps without the `note`
    /// and the `expect`s are the shrunk steps).
    private static func finalScope(of reproducer: Scenario, _ execute: Fuzzer.Execute) throws -> [JournalEntry] {
        let actions = reproducer.steps.filter { step in
            switch step {
            case .expect, .note: false
            default: true
            }
        }
        return Array(try execute(actions).suffix(tail(of: reproducer)).joined())
    }

    /// The final `expect`'s failed checks against `entries`, as `lifebus run` judges them (the app's state is not
    /// asked).
    private static func failedChecks(_ expectation: ScenarioExpectation, _ entries: [JournalEntry]) -> [String] {
        let resolved = expectation.resolved(for: .ios13)
        return (resolved.expectation.check(entries, state: .background) + resolved.backgroundChecks(entries))
            .filter { !$0.passed }.map { "\($0.check): \($0.recorded)" }
    }

    @Test func aBrokerThatHonoursTheConditionsKeepsEveryInvariantOverSeedsThatDrawThem() throws {
        var drawn: Set<String> = []
        var ran = 0  // seeds whose steps let the task run: the invariant is judged, not only held vacuously
        for seed in Self.seeds {
            let fuzzer = Self.fuzzer(seed: seed)
            ran += try Self.broker(ignoresPower: false)(fuzzer.steps).joined().isEmpty ? 0 : 1
            for case .fire(let params) in fuzzer.steps where params.event == .power || params.event == .network {
                drawn.insert("\(params.event.rawValue) \(params.action?.rawValue ?? "")")
            }
            let report = try fuzzer.run(execute: Self.broker(ignoresPower: false))
            #expect(report.failure == nil, "seed \(seed): \(String(describing: report.failure))")
        }
        #expect(drawn == ["power battery", "power external", "network offline", "network online"])
        #expect(ran >= Self.seeds.count / 2, "the task ran in \(ran) of \(Self.seeds.count) seeds")
        // The seeds `BackgroundFuzzLiveTests` runs against the real broker and FeedReader --cleans (the same apps,
        // facts, profile and steps: the same sequences) each take the device off its cable and offline.
        for seed in UInt64(1)...4 {
            let events = Self.fuzzer(seed: seed).steps.compactMap { step -> FireAction? in
                guard case .fire(let params) = step, params.event == .power || params.event == .network else {
                    return nil
                }
                return params.action
            }
            #expect(events.contains(.battery) && events.contains(.offline), "seed \(seed): \(events)")
        }
    }

    @Test func aBrokerThatIgnoresThePowerRequirementIsFoundAndShrunk() throws {
        let report = try #require(Self.firstFailure(Self.broker(ignoresPower: true)),
                                  "no seed in \(Self.seeds) ran the task on its battery")
        #expect(report.failure?.violation.kind == .processingRanUnmet(identifier: Self.clean))
        #expect(report.failure?.violation.detail.contains("externalPower") == true)
        let shrunk = try #require(report.shrunk)
        let fired = shrunk.compactMap { step -> String? in
            guard case .fire(let params) = step else { return nil }
            return "\(params.event.rawValue) \(params.action?.rawValue ?? "")"
        }
        #expect(fired.contains("power battery") && fired.contains("sleep "), "\(shrunk.map(\.summary))")
        #expect(fired.last != "power battery", "the run comes with a later step: \(shrunk.map(\.summary))")
        let last = try #require(report.reproducer?.steps.last)
        #expect(last == .expect(ScenarioExpectation(app: Self.app, noTask: Self.clean)))
    }

    /// The point of `noTask`: the step that ran the task also sent the app a memory warning. The reproducer's final
    /// check fails only because the task launched, and a broker that honours the conditions passes it although
    /// that step sends it the same warning — where the old `callbacks: []` failed both.
    @Test func theReproducerFailsForTheLaunchAloneNotForTheStepsOtherCallbacks() throws {
        let report = try #require(Self.firstFailure(Self.noisyBroker(ignoresPower: true)),
                                  "no seed in \(Self.seeds) ran the task on its battery")
        #expect(report.failure?.violation.kind == .processingRanUnmet(identifier: Self.clean))
        let reproducer = try #require(report.reproducer)
        guard case .expect(let final) = try #require(reproducer.steps.last) else {
            Issue.record("the reproducer does not end with an expect: \(reproducer.steps.map(\.summary))")
            return
        }
        #expect(final == ScenarioExpectation(app: Self.app, noTask: Self.clean))
        let old = ScenarioExpectation(app: Self.app, callbacks: [])
        let broken = try Self.finalScope(of: reproducer, Self.noisyBroker(ignoresPower: true))
        #expect(Self.failedChecks(final, broken) == ["noTask \(Self.clean): launched 1×"])
        let warnings = Array(repeating: "didReceiveMemoryWarning", count: Self.tail(of: reproducer))  // one a step
        #expect(Self.failedChecks(old, broken) == ["callbacks: " + warnings.joined(separator: ", ")])
        let fixed = try Self.finalScope(of: reproducer, Self.noisyBroker(ignoresPower: false))
        #expect(fixed.contains { if case .transition = $0 { true } else { false } }, "\(fixed)")
        #expect(Self.failedChecks(final, fixed) == [])
        #expect(Self.failedChecks(old, fixed) == ["callbacks: " + warnings.joined(separator: ", ")])
    }
}
