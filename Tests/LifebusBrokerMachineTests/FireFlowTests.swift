import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// One interruption end to end inside the machine: fire -> the app's callback -> its answer -> the controller's
/// reply carrying the transitions, with the journal ahead of every reply and notification.
@Suite struct FireFlowTests {
    /// A machine with `com.example.Notes` launched and active, and a controller.
    private static func activeApp(settings: MachineSettings = MachineSettings(device: DeviceConfiguration()))
        -> (harness: MachineHarness, app: SessionID, controller: SessionID)
    {
        var harness = MachineHarness(settings: settings)
        let (app, hello) = harness.introduce("app", app: "com.example.Notes", pid: 900)
        #expect(hello.callbacks.map(\.method) == ["didFinishLaunching"])
        let launched = harness.answerAllCallbacks(in: hello)
        #expect(launched.callbacks.map(\.method) == ["didBecomeActive"])
        harness.feed(.commitJournal)
        let (controller, _) = harness.introduce("controller")
        return (harness, app, controller)
    }

    @Test func aCallWaitsForTheAppsAnswerThenRepliesWithTheTransition() throws {
        var (harness, app, controller) = Self.activeApp()
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        #expect(fired.reply(to: fire) == nil, "the controller's answer waits for the app's")
        let callback = try #require(fired.callbacks.first)
        #expect(callback.method == "willResignActive")
        #expect(callback.session == app)
        _ = harness.advance(by: .milliseconds(3))
        let answer = CallbackAnswer(handlerMs: 0.5)
        let answered = harness.feed(.callbackAnswered(callback.app, callback.id, .success(answer)))
        let result = try #require(try answered.reply(to: fire)?.get())
        #expect(result["completed"]?.boolValue == true)
        let transitions = result["transitions"]?.arrayValue ?? []
        #expect(transitions.map { $0["to"]?.stringValue } == ["inactive"])
        #expect(transitions.first?["pid"]?.int64Value == 900)
        #expect(transitions.first?["answeredMs"]?.doubleValue == 3, "virtual time, counted from the epoch")
        #expect(harness.journal.writtenTransitions.last == "com.example.Notes: active -> inactive (ok)")
    }

    @Test func fireWithoutWaitIsAnsweredAtOnce() throws {
        var (harness, _, controller) = Self.activeApp()
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call","wait":false}"#)
        let result = try #require(try fired.reply(to: fire)?.get())
        #expect(result["completed"]?.boolValue == false)
        #expect(fired.callbacks.map(\.method) == ["willResignActive"])
    }

    @Test func anAppThatDoesNotAnswerInBudgetIsKilledByTheWatchdogOnVirtualTime() throws {
        var (harness, app, controller) = Self.activeApp()
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"home"}"#)
        let callback = try #require(fired.callbacks.first)
        #expect(callback.method == "willResignActive")
        let early = harness.advance(by: .milliseconds(9_999))
        #expect(!early.contains { if case .kill = $0 { true } else { false } })
        let due = harness.advance(by: .milliseconds(1))
        #expect(due.contains { if case .kill(_, via: .pid(900), reason: .watchdog) = $0 { true } else { false } })
        #expect(due.closing(of: app) == .now)
        let transitions = try #require(try due.reply(to: fire)?.get())["transitions"]?.arrayValue ?? []
        #expect(transitions.last?["outcome"]?.stringValue == "watchdog")
        #expect(transitions.last?["pid"]?.int64Value == 900)  // the killed process's, as the core held it
    }

    @Test func underJournalSyncTheReplyWaitsForTheTurnsCommit() throws {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.journalSyncs = true
        var (harness, _, controller) = Self.activeApp(settings: settings)
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        let callback = try #require(fired.callbacks.first)
        let answered = harness.feed(.callbackAnswered(callback.app, callback.id, .success(CallbackAnswer())))
        #expect(answered.reply(to: fire) == nil, "not before the commit")
        #expect(answered.asksForCommit)
        let commits = harness.journal.commits
        #expect(harness.machine.isCommitRequested, "the commit syncs what the reply waits for")
        let committed = harness.feed(.commitJournal)
        #expect(harness.journal.commits == commits + 1)
        #expect(committed.succeeded(fire))
    }

    /// Without `--journal-sync`, the reply writes the lines itself; the commit it asked for would do nothing, and the
    /// machine says so (the driver then arms no end-of-turn timer). A failed write keeps the commit asked for.
    @Test func aReplyThatWroteEveryLineWithdrawsTheCommit() throws {
        var (harness, _, controller) = Self.activeApp()
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        let callback = try #require(fired.callbacks.first)
        let answered = harness.feed(.callbackAnswered(callback.app, callback.id, .success(CallbackAnswer())))
        #expect(answered.succeeded(fire))
        #expect(answered.asksForCommit)
        #expect(!harness.machine.isCommitRequested)
        #expect(!harness.journal.hasUnwrittenLines)

        let (again, firedAgain) = harness.request(controller, "fire", #"{"event":"call","action":"end"}"#)
        let next = try #require(firedAgain.callbacks.first)
        harness.journal.failing = 28  // ENOSPC: the reply's write fails
        let refused = harness.feed(.callbackAnswered(next.app, next.id, .success(CallbackAnswer())))
        #expect(refused.reply(to: again) != nil)
        #expect(harness.machine.isCommitRequested, "the commit retries what is unwritten")
    }

    @Test func observersHearOfATransitionOnlyOnceItIsWritten() throws {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.journalSyncs = true
        var (harness, _, controller) = Self.activeApp(settings: settings)
        let (observer, _) = harness.introduce("observer")
        let (_, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        let callback = try #require(fired.callbacks.first)
        let answered = harness.feed(.callbackAnswered(callback.app, callback.id, .success(CallbackAnswer())))
        #expect(answered.notifications(to: observer).isEmpty)
        #expect(harness.feed(.commitJournal).notifications(to: observer) == ["transition"])
    }

    @Test func whileTheJournalFailsFireIsRefusedAndNothingIsInjected() {
        var (harness, _, controller) = Self.activeApp()
        harness.journal.failing = 28  // ENOSPC
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        #expect(fired.errorName(of: fire) == "lifebus.JournalUnavailable")
        #expect(fired.callbacks.isEmpty)
        #expect(harness.machine.device.state(of: "com.example.Notes") == .active)
        harness.journal.failing = nil
        let (again, retried) = harness.request(controller, "fire", #"{"event":"call"}"#)
        #expect(retried.reply(to: again) == nil)
        #expect(retried.callbacks.map(\.method) == ["willResignActive"])
    }

    @Test func aRejectedEventIsAnsweredWithItsReason() {
        var (harness, _, controller) = Self.activeApp()
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"activate","app":"com.example.Unknown"}"#)
        #expect(fired.errorName(of: fire) == "lifebus.EventRejected")
    }

    @Test func firesInFlightPerControllerAreBounded() {
        var (harness, _, controller) = Self.activeApp()
        for _ in 0..<64 {
            _ = harness.request(controller, "fire", #"{"event":"memory-warning"}"#)
        }
        let (fire, effects) = harness.request(controller, "fire", #"{"event":"memory-warning"}"#)
        #expect(effects.errorName(of: fire) == "lifebus.LimitExceeded")
    }

    @Test func aMarkIsJournaledBeforeItIsAcknowledged() {
        var (harness, app, _) = Self.activeApp()
        let before = harness.journal.entries.count
        let (mark, effects) = harness.request(app, "mark", #"{"name":"state-saved"}"#)
        #expect(effects.succeeded(mark))
        #expect(harness.journal.entries.count == before + 1)
        #expect(!harness.journal.hasUnwrittenLines)
    }
}
