import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// `wait` answered when the state is reached or when its deadline passes on virtual time, dropped with its session;
/// a stop that answers every pending request once and closes every session after its output.
@Suite struct WaitAndShutdownTests {
    @Test func aWaitIsAnsweredWhenTheAppReachesTheState() throws {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        let (wait, waiting) = harness.request(controller, "wait", #"{"app":"com.example.Notes","state":"active"}"#)
        #expect(waiting.reply(to: wait) == nil)
        let (_, hello) = harness.introduce("app", app: "com.example.Notes")
        _ = harness.advance(by: .milliseconds(40))
        let launched = harness.answerAllCallbacks(in: hello)
        let result = try #require(try launched.reply(to: wait)?.get())
        #expect(result["state"]?.stringValue == "active")
        #expect(result["sinceMs"]?.doubleValue == 40)
        #expect(harness.timer == nil, "the wait's deadline went with it")
    }

    @Test func aWaitAlreadySatisfiedIsAnsweredAtOnce() {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        let (wait, effects) = harness.request(controller, "wait", #"{"app":"com.example.Notes","state":"notRunning"}"#)
        #expect(effects.succeeded(wait))
    }

    @Test func aWaitTimesOutAtItsDeadlineWithTheStateAndTheLastTransitions() throws {
        var harness = MachineHarness()
        let (_, hello) = harness.introduce("app", app: "com.example.Notes")
        _ = harness.answerAllCallbacks(in: hello)
        let (controller, _) = harness.introduce("controller")
        let (wait, _) = harness.request(
            controller, "wait", #"{"app":"com.example.Notes","state":"background","timeoutMs":1500}"#)
        #expect(harness.advance(by: .milliseconds(1499)).reply(to: wait) == nil)
        let due = harness.advance(by: .milliseconds(1))
        guard case .failure(let error)? = due.reply(to: wait) else {
            Issue.record("the wait was not answered at its deadline")
            return
        }
        #expect(error.name == "lifebus.TimedOut")
        #expect(error.data?["state"]?.stringValue == "active")
        #expect(error.data?["transitions"]?.arrayValue?.map { $0["to"]?.stringValue } == ["inactive", "active"])
    }

    @Test func waitsPerConnectionAreBounded() {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        for _ in 0..<256 {
            _ = harness.request(controller, "wait", #"{"app":"com.example.Notes","state":"active"}"#)
        }
        let (wait, effects) = harness.request(controller, "wait", #"{"app":"com.example.Notes","state":"active"}"#)
        #expect(effects.errorName(of: wait) == "lifebus.LimitExceeded")
    }

    @Test func aSessionThatEndsDropsItsWaitsAndTheirDeadlines() {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        let (wait, _) = harness.request(controller, "wait", #"{"app":"com.example.Notes","state":"active"}"#)
        #expect(harness.timer != nil)
        let ended = harness.feed(.ended(controller))
        #expect(ended.contains { if case .forget(wait) = $0 { true } else { false } })
        #expect(harness.timer == nil)
        #expect(harness.advance(by: .seconds(60)).reply(to: wait) == nil)
    }

    @Test func anAppWhoseConnectionEndsIsDisconnectedInTheCore() {
        var harness = MachineHarness()
        let (app, hello) = harness.introduce("app", app: "com.example.Notes")
        _ = harness.answerAllCallbacks(in: hello)
        harness.feed(.ended(app))
        #expect(harness.machine.device.snapshot(of: "com.example.Notes")?.hasProcess == false)
        #expect(harness.machine.appCount == 0)
    }

    @Test func shutdownAnswersWhatIsPendingOnceAndClosesEverySessionAfterItsOutput() throws {
        var harness = MachineHarness()
        let (app, hello) = harness.introduce("app", app: "com.example.Notes")
        _ = harness.answerAllCallbacks(in: hello)
        let (controller, _) = harness.introduce("controller")
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        let (wait, _) = harness.request(controller, "wait", #"{"app":"com.example.Notes","state":"background"}"#)
        let stop = harness.feed(.shutdown)
        #expect(stop.errorName(of: fire) == "lifebus.BrokerShuttingDown")
        #expect(stop.errorName(of: wait) == "lifebus.BrokerShuttingDown")
        #expect(stop.closing(of: app) == .afterFlush)
        #expect(stop.closing(of: controller) == .afterFlush)
        #expect(harness.timer == nil)
        // The app's late answer completes the event in the core, but the fire was answered once already.
        let callback = try #require(fired.callbacks.first)
        let late = harness.feed(.callbackAnswered(callback.app, callback.id, .success(CallbackAnswer())))
        #expect(late.reply(to: fire) == nil)
        let (ping, refused) = harness.request(controller, "ping")
        #expect(refused.errorName(of: ping) == "lifebus.BrokerShuttingDown")
        let (newcomer, turnedAway) = harness.connect()
        #expect(turnedAway.notifications(to: newcomer) == ["lifebus.BrokerShuttingDown"])
        #expect(!harness.machine.isAdmitted(newcomer))
    }
}
