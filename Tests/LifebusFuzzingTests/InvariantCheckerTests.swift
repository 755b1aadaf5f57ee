import LifebusFuzzing
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The fuzzer's invariants over journal entries: budgets, and the `saves` / `restores` facts.
@Suite struct InvariantCheckerTests {
    private static let facts = AppFacts(saves: "state-saved", restores: "state-restored", restoredKeys: ["draft"])
    private var seq: Int64 = 0

    private mutating func moved(
        _ callback: LifecycleCallback?, _ from: LifecycleState, _ to: LifecycleState,
        _ outcome: TransitionOutcome = .ok
    ) -> JournalEntry {
        seq += 1
        return .transition(TransitionRecord(
            seq: seq, app: "A", pid: 1, callback: callback, cause: nil, from: from, to: to, firedMs: 0, sentMs: 0,
            answeredMs: 0, handlerMs: 0, budgetMs: 5000, outcome: outcome, wallMs: 0))
    }

    /// A scene callback of scene `scene` of session `session`.
    private mutating func sceneMoved(_ callback: LifecycleCallback, session: UInt32, scene: UInt32) -> JournalEntry {
        seq += 1
        return .transition(TransitionRecord(
            seq: seq, app: "A", pid: 1, callback: callback, cause: nil, from: .background, to: .background,
            firedMs: 0, sentMs: 0, answeredMs: 0, handlerMs: 0, budgetMs: 10000, outcome: .ok, wallMs: 0,
            scene: TransitionScene(scene: SceneID(scene), session: SceneSessionID(session), from: .background,
                                   to: .unattached)))
    }

    private mutating func mark(_ name: String, _ draft: Int64) -> JournalEntry {
        seq += 1
        return .mark(MarkRecord(seq: seq, app: "A", pid: 1, name: name, data: ["draft": .integer(draft)], atMs: 0,
                                wallMs: 0))
    }

    @Test mutating func aSaveBeforeEveryBackgroundAnswerHolds() {
        var checker = InvariantChecker(facts: Self.facts)
        let journal = [
            mark("state-restored", 0), moved(.didFinishLaunching, .notRunning, .inactive),
            moved(.willResignActive, .active, .inactive),
            mark("state-saved", 1), moved(.didEnterBackground, .inactive, .background),
            moved(.willEnterForeground, .suspended, .inactive),
        ]
        #expect(checker.check(journal).isEmpty)
    }

    @Test mutating func aBackgroundAnswerWithoutASaveIsCaughtAtThatRecord() {
        var checker = InvariantChecker(facts: Self.facts)
        #expect(checker.check([mark("state-saved", 1), moved(.willResignActive, .active, .inactive)]).isEmpty)
        let violations = checker.check([moved(.willTerminate, .inactive, .notRunning)])
        #expect(violations.map(\.kind) == [.notSaved(.willTerminate)], "the save before willResignActive is stale")
        #expect(violations.first?.app == "A")
    }

    @Test mutating func aRelaunchMustRestoreWhatWasLastSaved() {
        var checker = InvariantChecker(facts: Self.facts)
        _ = checker.check([mark("state-saved", 4), moved(.willTerminate, .active, .notRunning)])
        #expect(checker.check([mark("state-restored", 4), moved(.didFinishLaunching, .notRunning, .inactive)]).isEmpty)
        let wrong = checker.check([mark("state-restored", 3), moved(.didFinishLaunching, .notRunning, .inactive)])
        #expect(wrong.map(\.kind) == [.notRestored])
        #expect(wrong.first?.expected == ["draft": .integer(4)])
        let missing = checker.check([moved(.didFinishLaunching, .notRunning, .inactive)])
        #expect(missing.map(\.kind) == [.notRestored])
    }

    @Test mutating func aSceneReconnectedAfterItsPayloadMustRestoreIt() {
        var checker = InvariantChecker(facts: Self.facts)
        // A new session's scene restores nothing; session 1 gave its payload, so its next scene must restore it.
        #expect(checker.check([sceneMoved(.willConnectTo, session: 1, scene: 1),
                               sceneMoved(.stateRestorationActivity, session: 1, scene: 1)]).isEmpty)
        #expect(checker.check([mark("state-restored", 2), sceneMoved(.willConnectTo, session: 1, scene: 2)]).isEmpty)
        _ = checker.check([sceneMoved(.stateRestorationActivity, session: 1, scene: 2)])
        let missing = checker.check([sceneMoved(.willConnectTo, session: 1, scene: 3)])
        #expect(missing.map(\.kind) == [.notRestored])
        #expect(missing.first?.detail.contains("session 1") == true)
        _ = checker.check([sceneMoved(.stateRestorationActivity, session: 1, scene: 3)])
        seq += 1
        let keyless = MarkRecord(seq: seq, app: "A", pid: 1, name: "state-restored", data: [:], atMs: 0, wallMs: 0)
        let lacking = checker.check([.mark(keyless), sceneMoved(.willConnectTo, session: 1, scene: 4)])
        #expect(lacking.first?.detail.contains("lacks draft") == true)
    }

    @Test mutating func aLateOrKilledCallbackBreaksItsBudget() {
        var checker = InvariantChecker(facts: AppFacts())
        let violations = checker.check([moved(.willResignActive, .active, .inactive, .late),
                                        moved(.didEnterBackground, .inactive, .notRunning, .watchdog),
                                        moved(nil, .background, .notRunning, .crashed)])
        #expect(violations.map(\.kind) == [.overBudget(.willResignActive), .overBudget(.didEnterBackground)])
    }

    @Test func factsAreReadFromTheirOptions() throws {
        let options = ["saves=state-saved", "restores=state-restored:shown,launches"]
        let facts = try AppFacts(options.compactMap(AppFact.init))
        #expect(facts == AppFacts(saves: "state-saved", restores: "state-restored",
                                  restoredKeys: ["shown", "launches"]))
        #expect(facts.options == options)
        #expect(try AppFacts(facts.facts) == facts)
        #expect(throws: AppFacts.Failure.self) { try AppFacts([.restores(mark: "state-restored", keys: nil)]) }
    }

    @Test(arguments: [
        ("saves=state-saved", AppFact.saves(mark: "state-saved")),
        ("saves=a:b", .saves(mark: "a:b")),
        ("restores=back", .restores(mark: "back", keys: nil)),
        ("restores=back:shown", .restores(mark: "back", keys: ["shown"])),
        ("restores=back:shown,draft", .restores(mark: "back", keys: ["shown", "draft"])),
        ("scenes", .scenes),
        ("task=com.example.Feed.refresh", .task(identifier: "com.example.Feed.refresh", after: nil)),
        ("task=refresh:15m", .task(identifier: "refresh", after: .seconds(900))),
        ("pushes", .pushes),
        ("taps", .taps),
        ("protected=draft-lost", .protectedWrites(failureMark: "draft-lost")),
        ("processing=clean", .processing(ProcessingTaskFact(identifier: "clean"))),
        ("processing=clean:1m:power:network", .processing(ProcessingTaskFact(
            identifier: "clean", after: .seconds(60), requiresExternalPower: true, requiresNetworkConnectivity: true))),
        ("processing=clean:network", .processing(ProcessingTaskFact(identifier: "clean",
                                                                    requiresNetworkConnectivity: true))),
        ("processing=clean:15m:power", .processing(ProcessingTaskFact(
            identifier: "clean", after: .seconds(900), requiresExternalPower: true))),
    ])
    func aFactIsReadFromItsOptionAndSpelledBack(text: String, fact: AppFact) {
        #expect(AppFact(text) == fact)
        #expect(AppFact(fact.text) == fact)
    }

    @Test(arguments: [
        "remembers=x", "saves=", "saves", "restores=", "restores=:keys", "=x", "", "task=", "task=a b", "task=x:soon",
        "task=x:", "protected=", "pushes=x", "processing=", "processing=x:network:power", "processing=x:power:power",
        "processing=x:soon", "processing=x:power:1m", "processing=x:", "processing=:power", "taps=x",
    ])
    func anythingElseIsNoFact(text: String) {
        #expect(AppFact(text) == nil)
    }
}
