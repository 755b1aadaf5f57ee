import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// What is due at an input's instant happens before the input (lifecycle.md, "At the exact instant, the watchdog
/// wins"), and under the manual clock memory samples fall on virtual time (`VirtualSampling`).
@Suite struct DeadlineOrderTests {
    static let app: AppID = "com.example.Notes"

    /// A machine with `com.example.Notes` (pid 900) active and a controller; `settings` as given.
    private static func started(_ settings: MachineSettings) -> (MachineHarness, SessionID) {
        var harness = MachineHarness(settings: settings)
        let (_, hello) = harness.introduce("app", app: app.rawValue, pid: 900)
        _ = harness.answerAllCallbacks(in: hello)
        harness.feed(.commitJournal)
        let (controller, _) = harness.introduce("controller")
        return (harness, controller)
    }

    private static func killed(_ effects: [BrokerEffect], _ reason: KillReason) -> Bool {
        effects.contains { if case .kill(_, via: .pid(900), reason: reason) = $0 { true } else { false } }
    }

    @Test(arguments: [(Duration.milliseconds(9_999), false), (.seconds(10), true), (.seconds(11), true)])
    func anAnswerReadAtOrAfterItsBudgetsEndLosesToTheWatchdogEvenBeforeTheTimerRan(
        after wait: Duration, watchdog: Bool
    ) throws {
        var (harness, controller) = Self.started(MachineSettings(device: DeviceConfiguration()))
        let (_, fired) = harness.request(controller, "fire", #"{"event":"home"}"#)
        let callback = try #require(fired.callbacks.first)
        #expect(callback.method == "willResignActive")  // a 10 s budget
        harness.lateTimer(by: wait)
        let answered = harness.feed(.callbackAnswered(callback.app, callback.id, .success(CallbackAnswer())))
        #expect(Self.killed(answered, .watchdog) == watchdog)
        // In time, the answer moves the app on (didEnterBackground sent); too late, it is gone.
        #expect(harness.machine.device.state(of: Self.app) == (watchdog ? .notRunning : .background))
    }

    /// A loop turn that comes late past several deadlines handles them in the order they fell, the core's and the
    /// broker's alike: a `wait` whose timeout fell between a background task's expiration warning (175 s) and its
    /// kill (180 s) times out seeing the app in the background, as it would have on time, and the kill follows.
    @Test func aLateTurnHandlesTheCoresAndTheBrokersDeadlinesInTheOrderTheyFell() throws {
        var (harness, app) = MachineHarness.notesLaunched()
        let (controller, _) = harness.introduce("controller")
        let (begin, began) = harness.request(app, "beginBackgroundTask", "{}")
        #expect(began.succeeded(begin))
        let (_, home) = harness.request(controller, "fire", #"{"event":"home"}"#)
        _ = harness.answerAllCallbacks(in: home)
        #expect(harness.machine.device.state(of: Self.app) == .background)
        let (wait, _) = harness.request(
            controller, "wait", #"{"app":"com.example.Notes","state":"notRunning","timeoutMs":177000}"#)
        harness.lateTimer(by: .seconds(200))
        let late = harness.feed(.timerFired)
        guard case .failure(let error)? = late.reply(to: wait) else {
            Issue.record("the wait saw the kill that fell after its timeout")
            return
        }
        #expect(error.name == "lifebus.TimedOut")
        #expect(error.data?["state"]?.stringValue == "background")
        #expect(Self.killed(late, .backgroundTaskExpired), "the kill at the budget's end follows in the same turn")
        #expect(harness.machine.device.state(of: Self.app) == .notRunning)
    }

    private static func manualWithSampling() -> (MachineHarness, SessionID) {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.clock = .manual
        settings.memorySamplePeriod = .milliseconds(250)
        return started(settings)
    }

    @Test func aSampleIsAskedForWhenAnAdvanceReachesItsVirtualInstantAndTheAdvanceWaitsForIt() throws {
        var (harness, controller) = Self.manualWithSampling()
        let before = harness.machine.takeMemorySampleRequest()
        #expect(!before, "no sample before virtual time moves")
        let (short, early) = harness.request(controller, "advance", #"{"byMs":100}"#)
        let notYet = harness.machine.takeMemorySampleRequest()
        #expect(early.reply(to: short) != nil && !notYet, "250 ms not reached")

        let (advance, waiting) = harness.request(controller, "advance", #"{"byMs":200}"#)
        #expect(waiting.reply(to: advance) == nil, "waits for the sample at 250 ms")
        let asked = harness.machine.takeMemorySampleRequest()
        let again = harness.machine.takeMemorySampleRequest()
        #expect(asked && !again, "asked once")
        let kill = MemoryRound.Kill(app: Self.app, reason: .memoryLimit, residentBytes: 2 << 20, limit: 1 << 20)
        let round = MemoryRound(samples: [Self.app: 2 << 20], level: .normal, totalBytes: 2 << 20,
                                deviceMemory: 1 << 30, kills: [kill])
        let sampled = harness.feed(.memorySampled(round))
        #expect(Self.killed(sampled, .jetsam))
        let result = try ClockResult(json: try #require(try sampled.reply(to: advance)?.get()))
        #expect(result.nowMs == 300)
        let (status, answered) = harness.request(controller, "status", #"{"app":"com.example.Notes"}"#)
        let entry = try #require(try answered.reply(to: status)?.get())["apps"]?.arrayValue?.first
        #expect(entry?["state"]?.stringValue == "notRunning")
        #expect(entry?["sinceMs"]?.doubleValue == 250, "killed at the sample's virtual instant")
    }

    @Test func aLongAdvanceWithNothingHappeningTakesTwoSamplesNotOnePerPeriod() throws {
        var (harness, controller) = Self.manualWithSampling()
        let (advance, first) = harness.request(controller, "advance", #"{"byMs":3600000}"#)
        var effects = first
        var samples = 0
        while effects.reply(to: advance) == nil, harness.machine.takeMemorySampleRequest() {
            samples += 1
            effects = harness.feed(.memorySampled(MemoryRound(samples: [Self.app: 1 << 20], level: .normal,
                                                              totalBytes: 1 << 20, deviceMemory: 1 << 30)))
        }
        // The first round sets the level (none → normal), the second changes nothing: the 14 398 instants left
        // would read the same.
        #expect(samples == 2)
        let result = try ClockResult(json: try #require(try effects.reply(to: advance)?.get()))
        #expect(result.nowMs == 3_600_000)
    }
}
