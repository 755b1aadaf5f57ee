import LifebusExpectation
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

/// The scenario format's background steps and checks: `fire: bgtask …` and `fire: push …` read by the CLI's parser
/// and written back, `expect`'s `task`, `push`, `presented`, `noMark` and `noTask` read, refused where wrong, written
/// back, and checked against task, push and mark records.
@Suite struct BackgroundScenarioTests {
    private static let app = "com.example.FeedReader"
    private static let refresh = "com.example.FeedReader.refresh"
    private static let clean = "com.example.FeedReader.clean"

    private static func steps(_ text: String) throws -> [ScenarioStep] {
        try ScenarioParserTests.parse("apps: [{id: \(app)}]\nsteps:\n" + text).steps
    }

    @Test func backgroundFireStepsReadAndWriteBack() throws {
        let steps = try Self.steps("""
              - fire: bgtask \(Self.app) \(Self.refresh)
              - fire: bgtask \(Self.app) \(Self.refresh) --cancel
              - fire: push \(Self.app)
              - fire: 'push \(Self.app) --alert --payload {"aps":{"alert":"hi"}}'
            """)
        guard case .fire(let run) = steps[0], case .fire(let cancel) = steps[1], case .fire(let push) = steps[2],
              case .fire(let alert) = steps[3]
        else {
            Issue.record("not four fire steps: \(steps)")
            return
        }
        #expect(run.event == .bgtask && run.app == Self.app && run.identifier == Self.refresh)
        #expect(cancel.action == .cancel && cancel.identifier == Self.refresh)
        #expect(push.event == .push && push.payload == nil)
        #expect(alert.action == .alert && alert.payload == #"{"aps":{"alert":"hi"}}"#)
        for step in steps {
            guard case .fire(let params) = step else { continue }
            let written = try Self.steps("  - fire: '\(params.words.joined(separator: " "))'\n")
            #expect(written == [step], "\(params.words)")
        }
    }

    @Test func anExpectReadsItsBackgroundMembersAndWritesThemBack() throws {
        let steps = try Self.steps("""
              - expect:
                  task: {identifier: \(Self.refresh), outcome: killed}
                  push: failed
                  presented: [sound, banner]
                  noMark: draft-saved
                  noTask: \(Self.clean)
                  profiles:
                    ios26: {task: {identifier: \(Self.refresh), outcome: expired}, presented: none}
                    ios27: {noTask: \(Self.refresh)}
            """)
        let expected = ScenarioExpectation(
            task: ScenarioTask(identifier: Self.refresh, outcome: .killed), push: .failed,
            presented: [.banner, .sound], noMark: "draft-saved", noTask: Self.clean,
            profiles: [.ios26: ScenarioExpectation(task: ScenarioTask(identifier: Self.refresh, outcome: .expired),
                                                   presented: []),
                       .ios27: ScenarioExpectation(noTask: Self.refresh)])
        #expect(steps == [.expect(expected)])
        #expect(expected.resolved(for: .ios26).task?.outcome == .expired)
        #expect(expected.resolved(for: .ios13).noMark == "draft-saved")
        #expect(expected.resolved(for: .ios26).noTask == Self.clean)
        #expect(expected.resolved(for: .ios27).noTask == Self.refresh)
        #expect(expected.resolved(for: .ios26).presented == [])
        #expect(expected.resolved(for: .ios27).presented == [.banner, .sound])
        let scenario = Scenario(name: "s", profiles: [.ios13], apps: [.id(Self.app)], steps: steps)
        let reread = try ScenarioParserTests.parse(scenario.json.jsonText)
        #expect(reread.steps == steps)
    }

    @Test(arguments: [
        ("task: {identifier: x}", "task needs identifier and outcome"),
        ("task: {identifier: x, outcome: done}", "'done' is not a task outcome; use running, completed, failed"),
        ("push: sent", "'sent' is not a push outcome; use newData, noData, failed, late, deferred, discarded"),
        ("noMark: ''", "noMark"),
        ("{scene: 1, noMark: x}", "noMark is about the app: an expect with scene does not take it"),
        ("noTask: ''", "noTask must not be empty"),
        ("noTask: [x]", "noTask must be a string"),
        ("{scene: 1, noTask: x}", "noTask is about the app: an expect with scene does not take it"),
        ("presented: all", "presented must be none or a list of banner, list, sound, badge"),
        ("presented: [banner, alert]", "'alert' is not a presentation option; use banner, list, sound, badge"),
        ("{scene: 1, presented: none}", "presented is about the app: an expect with scene does not take it"),
        ("{scene: 1, profiles: {ios27: {noTask: x}}}",
         "noTask is about the app: an expect with scene does not take it"),
    ])
    func aWrongBackgroundMemberIsRefused(member: String, message: String) {
        let text = member.hasPrefix("{") ? "  - expect: \(member)\n" : "  - expect: {\(member)}\n"
        let error = ScenarioParserTests.error("apps: [{id: \(Self.app)}]\nsteps:\n" + text)
        #expect(error.contains(message), "\(error)")
    }

    private static func task(_ event: BackgroundTaskRecord.Event, success: Bool? = nil, identifier: String = refresh)
        -> JournalEntry
    {
        .task(BackgroundTaskRecord(seq: 1, app: app, pid: 1, identifier: identifier, kind: .appRefresh, event: event,
                                   success: success, atMs: 0, wallMs: 0))
    }

    private static func push(_ event: PushDeliveryRecord.Event, _ result: BackgroundFetchResult? = nil)
        -> JournalEntry
    {
        .push(PushDeliveryRecord(seq: 1, app: app, pid: 1, event: event, result: result, payload: "{}", atMs: 0,
                                 wallMs: 0))
    }

    @Test func aTaskEndsAsItsLatestRunsRecordsSay() {
        let outcome = { (entries: [JournalEntry]) in
            ScenarioExpectation(task: ScenarioTask(identifier: Self.refresh, outcome: .killed))
                .backgroundChecks(entries).first?.recorded
        }
        #expect(outcome([Self.task(.submitted)]) == "not run")
        #expect(outcome([Self.task(.launched)]) == "running")
        #expect(outcome([Self.task(.launched), Self.task(.completed, success: true)]) == "completed")
        #expect(outcome([Self.task(.launched), Self.task(.completed, success: false)]) == "failed")
        #expect(outcome([Self.task(.launched), Self.task(.expiring), Self.task(.completed, success: false)])
                == "expired")
        #expect(outcome([Self.task(.expiring), Self.task(.expired)]) == "killed")
        #expect(outcome([Self.task(.launched), Self.task(.expired), Self.task(.launched)]) == "running")
        let killed = ScenarioExpectation(task: ScenarioTask(identifier: Self.refresh, outcome: .killed))
            .backgroundChecks([Self.task(.launched), Self.task(.expired)])
        #expect(killed == [Expectation.Result(check: "task \(Self.refresh)", expected: "killed", recorded: "killed",
                                              passed: true)])
    }

    @Test func aPushEndsAsItsLatestRecordSaysAndAnAbsentMarkIsChecked() {
        let check = { (expectation: ScenarioExpectation, entries: [JournalEntry]) in
            expectation.backgroundChecks(entries).map { "\($0.recorded) \($0.passed)" }
        }
        let failed = ScenarioExpectation(push: .failed)
        #expect(check(failed, []) == ["no push answered false"])
        #expect(check(failed, [Self.push(.delivered)]) == ["no push answered false"])
        #expect(check(failed, [Self.push(.delivered), Self.push(.answered, .failed)]) == ["failed true"])
        #expect(check(failed, [Self.push(.answered, .newData), Self.push(.deferred)]) == ["deferred false"])
        #expect(check(ScenarioExpectation(push: .late), [Self.push(.late, .noData)]) == ["late true"])
        let discarded = ScenarioExpectation(push: .discarded)
        #expect(check(discarded, [Self.push(.deferred), Self.push(.discarded)]) == ["discarded true"])
        #expect(check(discarded, [Self.push(.discarded), Self.push(.deferred)]) == ["deferred false"])
        let mark = JournalEntry.mark(MarkRecord(seq: 1, app: Self.app, pid: 1, name: "draft-lost", data: nil,
                                                atMs: 0, wallMs: 0))
        let noMark = ScenarioExpectation(noMark: "draft-lost")
        #expect(check(noMark, [Self.push(.delivered)]) == ["absent true"])
        #expect(check(noMark, [mark, mark]) == ["made 2× false"])
    }

    @Test func aNotificationIsPresentedAsTheLatestPresentedRecordSays() {
        let check = { (expectation: ScenarioExpectation, entries: [JournalEntry]) in
            expectation.backgroundChecks(entries).map { "\($0.recorded) \($0.passed)" }
        }
        func presented(_ options: NotificationPresentationOptions) -> JournalEntry {
            .push(PushDeliveryRecord(seq: 1, app: Self.app, pid: 1, event: .presented, result: nil,
                                     presentation: options, payload: "{}", atMs: 0, wallMs: 0))
        }
        let none = ScenarioExpectation(presented: [])
        #expect(check(none, [Self.push(.delivered)]) == ["none offered false"], "delivered, never offered")
        #expect(check(none, [Self.push(.delivered), presented([])]) == ["none true"])
        #expect(check(none, [presented([]), presented([.banner])]) == ["banner false"], "the latest counts")
        let shown = ScenarioExpectation(presented: [.banner, .sound])
        #expect(check(shown, [presented([.sound, .banner]), Self.push(.delivered)]) == ["banner,sound true"])
        #expect(check(shown, [presented([.banner])]) == ["banner false"])
    }

    @Test func aTaskNotLaunchedCountsItsLaunchesAlone() {
        let noTask = ScenarioExpectation(noTask: Self.clean)
        let check = { (entries: [JournalEntry]) in noTask.backgroundChecks(entries) }
        #expect(check([]) == [Expectation.Result(check: "noTask \(Self.clean)", expected: "not launched",
                                                 recorded: "not launched", passed: true)])
        let launched = Self.task(.launched, identifier: Self.clean)
        #expect(check([launched]) == [Expectation.Result(check: "noTask \(Self.clean)", expected: "not launched",
                                                         recorded: "launched 1×", passed: false)])
        #expect(check([launched, Self.task(.completed, success: true, identifier: Self.clean), launched])
            .map(\.recorded) == ["launched 2×"])
        // Another identifier's launch, and this one's other events, are not its launch.
        let others = [Self.task(.launched), Self.task(.submitted, identifier: Self.clean),
                      Self.task(.completed, success: true, identifier: Self.clean),
                      Self.task(.expiring, identifier: Self.clean)]
        #expect(check(others).map(\.passed) == [true])
    }
}
