import LifebusFuzzing
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

/// The device's conditions fuzzed (`--fact processing=ID:1m:power:network`), against stand-in brokers that run the
/// app's processing task once it is due (a minute after the app's first launch): a correct one runs it only on a
/// locked device, plugged in and online, and keeps every invariant over a range of seeds that draw `power` and
/// `network`; one that ignores the power requirement is found, and shrunk to the steps that show it.
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
        let found = Self.seeds.lazy.compactMap { seed -> Fuzzer.Report? in
            let report = try? Self.fuzzer(seed: seed).run(execute: Self.broker(ignoresPower: true))
            return report?.failure == nil ? nil : report
        }.first
        let report = try #require(found, "no seed in \(Self.seeds) ran the task on its battery")
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
        #expect(last == .expect(ScenarioExpectation(app: Self.app, callbacks: [])))
    }
}
