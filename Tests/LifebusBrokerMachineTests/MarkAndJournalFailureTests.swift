import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// Marks and what a failing journal does to them: a mark is acknowledged only once written, observers hear of it,
/// and while the journal fails the app is told its mark is not recorded.
@Suite struct MarkAndJournalFailureTests {
    /// A machine with `com.example.Notes` connected and an observer.
    private static func appAndObserver(settings: MachineSettings = MachineSettings(device: DeviceConfiguration()))
        -> (harness: MachineHarness, app: SessionID, observer: SessionID)
    {
        var harness = MachineHarness(settings: settings)
        let (app, hello) = harness.introduce("app", app: "com.example.Notes")
        _ = harness.answerAllCallbacks(in: hello)
        let (observer, _) = harness.introduce("observer")
        return (harness, app, observer)
    }

    @Test func observersHearOfAMarkWithItsRecord() {
        var (harness, app, observer) = Self.appAndObserver()
        let (mark, effects) = harness.request(app, "mark", #"{"name":"state-saved","data":{"items":3}}"#)
        #expect(effects.succeeded(mark))
        #expect(effects.notifications(to: observer) == ["mark"])
    }

    @Test func whileTheJournalFailsAMarkIsRefusedAndNotAcknowledged() {
        var (harness, app, _) = Self.appAndObserver()
        harness.journal.failing = 5  // EIO
        let (mark, effects) = harness.request(app, "mark", #"{"name":"state-saved"}"#)
        guard case .failure(let error)? = effects.reply(to: mark) else {
            Issue.record("the mark was not refused")
            return
        }
        #expect(error.name == "lifebus.JournalUnavailable")
        #expect(error.data?["errno"]?.int64Value == 5)
    }

    @Test func underJournalSyncAMarkIsAcknowledgedAfterTheCommit() {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.journalSyncs = true
        var (harness, app, observer) = Self.appAndObserver(settings: settings)
        harness.feed(.commitJournal)
        let (mark, effects) = harness.request(app, "mark", #"{"name":"state-saved"}"#)
        #expect(effects.reply(to: mark) == nil)
        #expect(effects.notifications(to: observer).isEmpty)
        let committed = harness.feed(.commitJournal)
        #expect(committed.succeeded(mark))
        #expect(committed.notifications(to: observer) == ["mark"])
    }

    @Test func aCommitThatFailsTellsTheWaitingFireItsEventIsNotRecorded() throws {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.journalSyncs = true
        var (harness, _, _) = Self.appAndObserver(settings: settings)
        harness.feed(.commitJournal)
        let (controller, _) = harness.introduce("controller")
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        let callback = try #require(fired.callbacks.first)
        harness.feed(.callbackAnswered(callback.app, callback.id, .success(CallbackAnswer())))
        harness.journal.failing = 28
        let committed = harness.feed(.commitJournal)
        #expect(committed.errorName(of: fire) == "lifebus.JournalUnavailable")
    }
}
