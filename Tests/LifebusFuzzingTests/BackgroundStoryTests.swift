import LifebusFuzzing
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

/// Issue 28's two stories found by the fuzzer, against stand-in brokers whose one app has the story's bug (the live
/// apps are `FeedReader --forgets-completion` and `FeedReader`): a refresh task that never calls `setTaskCompleted`
/// (killed 30 s after it started), and a draft written to a protected file by a push that comes more than 10 s after
/// the device locked. In a fixed range of seeds each is found, shrunk to the steps it needs, and written as a
/// reproducer whose last `expect` the bug contradicts.
@Suite struct BackgroundStoryTests {
    private static let app = "com.example.FeedReader"
    private static let refresh = "com.example.FeedReader.refresh"
    private static let seeds = UInt64(1)...40

    private static func fuzzer(seed: UInt64, facts: AppFacts) -> Fuzzer {
        Fuzzer(seed: seed, stepCount: 40, profile: .ios13, apps: [(app, .manifest(path: "/m/feedreader.json"))],
               facts: facts)
    }

    /// A task record of the refresh task.
    private static func task(_ event: BackgroundTaskRecord.Event, seq: Int) -> JournalEntry {
        .task(BackgroundTaskRecord(seq: Int64(seq), app: app, pid: 1, identifier: refresh, kind: .appRefresh,
                                   event: event, success: nil, atMs: 0, wallMs: 0))
    }

    /// FeedReader `--forgets-completion`: a refresh task run by `fire bgtask` is never completed, so 30 s of virtual
    /// time later it is journaled `expired` (the app killed); a crash or an ending takes the task with it.
    private static func forgetsCompletion(_ steps: [ScenarioStep]) -> [[JournalEntry]] {
        var runningFor: Duration?
        return steps.enumerated().map { index, step in
            switch step {
            case .fire(let params) where params.event == .bgtask:
                runningFor = .zero
                return [task(.launched, seq: index + 1)]
            case .fire(let params) where params.event == .terminate:
                runningFor = nil
            case .kill, .launch, .relaunch:
                runningFor = nil
            case .advance(let duration):
                guard let elapsed = runningFor else { return [] }
                runningFor = elapsed + duration
                if elapsed + duration >= .seconds(30) {
                    runningFor = nil
                    return [task(.expiring, seq: index + 1), task(.expired, seq: index + 1)]
                }
            default:
                break
            }
            return []
        }
    }

    /// FeedReader without `--saves-on-lock`: a silent push (which launches it if it is not running) writes the draft,
    /// which fails (`draft-lost`) once the device has been locked (`sleep`) for 10 s of virtual time, until `wake`.
    private static func losesDraft(_ steps: [ScenarioStep]) -> [[JournalEntry]] {
        var lockedFor: Duration?
        return steps.enumerated().map { index, step in
            switch step {
            case .fire(let params) where params.event == .sleep:
                lockedFor = lockedFor ?? .zero
            case .fire(let params) where params.event == .wake:
                lockedFor = nil
            case .fire(let params) where params.event == .push && params.action == nil:
                guard let locked = lockedFor, locked >= .seconds(10) else { return [] }
                return [.mark(MarkRecord(seq: Int64(index + 1), app: app, pid: 1, name: "draft-lost",
                                         data: ["errno": "EPERM"], atMs: 0, wallMs: 0))]
            case .advance(let duration):
                lockedFor = lockedFor.map { $0 + duration }
            default:
                break
            }
            return []
        }
    }

    @Test func aRefreshTaskThatForgetsSetTaskCompletedIsFoundAndShrunk() throws {
        let facts = AppFacts(task: (identifier: Self.refresh, after: .seconds(900)))
        let found = Self.seeds.lazy.compactMap { seed -> Fuzzer.Report? in
            let report = try? Self.fuzzer(seed: seed, facts: facts).run(execute: Self.forgetsCompletion)
            return report?.failure == nil ? nil : report
        }.first
        let report = try #require(found, "no seed in \(Self.seeds) ran the refresh task for 30 s")
        #expect(report.failure?.violation.kind == .taskNotEnded(identifier: Self.refresh))
        let shrunk = try #require(report.shrunk)
        #expect(shrunk.count == 3, "\(shrunk.map(\.summary))")
        #expect(shrunk.first == .launch(Self.app) || shrunk.first == .relaunch(Self.app))
        guard case .fire(let run) = shrunk[1], case .advance(let advance) = shrunk[2] else {
            Issue.record("not a run and an advance: \(shrunk.map(\.summary))")
            return
        }
        #expect(run.event == .bgtask && run.identifier == Self.refresh)
        #expect(advance >= .seconds(30))
        let last = try #require(report.reproducer?.steps.last)
        #expect(last == .expect(ScenarioExpectation(
            app: Self.app, task: ScenarioTask(identifier: Self.refresh, outcome: .completed))))
    }

    @Test func aDraftLostToALockedDeviceIsFoundAndShrunk() throws {
        let facts = AppFacts(pushes: true, protectedWriteFailure: "draft-lost")
        let found = Self.seeds.lazy.compactMap { seed -> Fuzzer.Report? in
            let report = try? Self.fuzzer(seed: seed, facts: facts).run(execute: Self.losesDraft)
            return report?.failure == nil ? nil : report
        }.first
        let report = try #require(found, "no seed in \(Self.seeds) pushed 10 s after a lock")
        #expect(report.failure?.violation.kind == .protectedWriteFailed)
        // No launch: a push launches the app into the background (as it does FeedReader).
        let shrunk = try #require(report.shrunk)
        #expect(shrunk.count == 3, "\(shrunk.map(\.summary))")
        guard shrunk.count == 3, case .fire(let sleep) = shrunk[0], case .advance(let advance) = shrunk[1],
              case .fire(let push) = shrunk[2]
        else { return }
        #expect(sleep.event == .sleep && push.event == .push)
        #expect(advance >= .seconds(10))
        let last = try #require(report.reproducer?.steps.last)
        #expect(last == .expect(ScenarioExpectation(app: Self.app, noMark: "draft-lost")))
    }

    @Test func withoutTheirFactsNoSeedFiresTheBackgroundEvents() {
        for seed in Self.seeds {
            let steps = Self.fuzzer(seed: seed, facts: AppFacts()).steps
            #expect(!steps.contains { step in
                if case .fire(let params) = step { params.event == .bgtask || params.event == .push } else { false }
            }, "seed \(seed)")
        }
    }
}
