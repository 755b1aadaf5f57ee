import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// A scene's `wait` in the machine (`Protocol/README.md` §11.3): answered when the scene reaches the state (waited
/// for before the app connects), at once when it is there (a scene not connected is `unattached`), at its deadline
/// with the scene's state, counted against the connection's waits and dropped with its session — the waiter
/// bookkeeping sound throughout.
@Suite struct SceneWaitTests {
    static let notes = "com.example.Notes"

    /// A harness under ios17 and a scene app that said hello (its launch's callbacks not answered yet).
    static func sceneApp(_ harness: inout MachineHarness) -> [BrokerEffect] {
        let (session, _) = harness.connect(spoke: true)
        let app = #"{"id":"\#(notes)","scenes":true,"multipleScenes":true}"#
        return harness.request(session, "hello", #"{"role":"app","protocolVersion":1,"app":\#(app)}"#).1
    }

    static func ios17() -> MachineHarness {
        MachineHarness(settings: MachineSettings(device: DeviceConfiguration(profile: .ios17)))
    }

    @Test func aSceneWaitIsAnsweredWhenTheSceneBecomesActiveAfterTheAppConnects() throws {
        var harness = Self.ios17()
        let (controller, _) = harness.introduce("controller")
        let (wait, waiting) = harness.request(
            controller, "wait", #"{"app":"\#(Self.notes)","scene":1,"state":"foregroundActive"}"#)
        #expect(waiting.reply(to: wait) == nil)
        let hello = Self.sceneApp(&harness)
        _ = harness.advance(by: .milliseconds(30))
        let launched = harness.answerAllCallbacks(in: hello)
        let result = try #require(try launched.reply(to: wait)?.get())
        #expect(result.jsonText
            == #"{"app":"com.example.Notes","scene":1,"session":1,"state":"foregroundActive","sinceMs":30.0}"#)
        #expect(harness.machine.invariantViolations.isEmpty, "\(harness.machine.invariantViolations)")
    }

    @Test func aSceneNotConnectedIsUnattachedAtOnceAndAReachedOneAnswersWithItsInstant() throws {
        var harness = Self.ios17()
        let (controller, _) = harness.introduce("controller")
        let (early, effects) = harness.request(controller, "wait", #"{"app":"x.y","scene":3,"state":"unattached"}"#)
        #expect(try effects.reply(to: early)?.get().jsonText
            == #"{"app":"x.y","scene":3,"state":"unattached","sinceMs":null}"#)
        _ = harness.advance(by: .milliseconds(5))
        _ = harness.answerAllCallbacks(in: Self.sceneApp(&harness))
        _ = harness.advance(by: .milliseconds(100))
        let (now, answered) = harness.request(
            controller, "wait", #"{"app":"\#(Self.notes)","scene":1,"state":["background","foregroundActive"]}"#)
        #expect(try answered.reply(to: now)?.get()["sinceMs"]?.doubleValue == 5, "when it entered the state")
    }

    @Test func aSceneWaitTimesOutWithTheScenesStateAndIsDroppedWithItsSession() throws {
        var harness = Self.ios17()
        _ = harness.answerAllCallbacks(in: Self.sceneApp(&harness))
        let (controller, _) = harness.introduce("controller")
        let (wait, _) = harness.request(
            controller, "wait", #"{"app":"\#(Self.notes)","scene":1,"state":"background","timeoutMs":200}"#)
        guard case .failure(let error)? = harness.advance(by: .milliseconds(200)).reply(to: wait) else {
            Issue.record("the scene's wait was not answered at its deadline")
            return
        }
        #expect(error.name == "lifebus.TimedOut")
        #expect(error.data?["sceneState"]?.stringValue == "foregroundActive")
        #expect(error.data?["state"]?.stringValue == "active")
        #expect(error.message.contains("com.example.Notes/1 is foregroundActive, not background, after 200ms"))

        let (other, _) = harness.request(
            controller, "wait", #"{"app":"\#(Self.notes)","scene":2,"state":"foregroundActive"}"#)
        let ended = harness.feed(.ended(controller))
        #expect(ended.contains { if case .forget(other) = $0 { true } else { false } })
        #expect(harness.machine.invariantViolations.isEmpty, "\(harness.machine.invariantViolations)")
    }

    @Test func sceneWaitsCountAgainstTheConnectionsWaits() {
        var harness = Self.ios17()
        let (controller, _) = harness.introduce("controller")
        for number in 0..<256 {
            let params = number.isMultiple(of: 2)
                ? #"{"app":"\#(Self.notes)","state":"active"}"#
                : #"{"app":"\#(Self.notes)","scene":1,"state":"foregroundActive"}"#
            _ = harness.request(controller, "wait", params)
        }
        let (wait, effects) = harness.request(
            controller, "wait", #"{"app":"\#(Self.notes)","scene":1,"state":"foregroundActive"}"#)
        #expect(effects.errorName(of: wait) == "lifebus.LimitExceeded")
        let (refused, invalid) = harness.request(
            controller, "wait", #"{"app":"\#(Self.notes)","scene":1,"state":"active"}"#)
        #expect(invalid.errorName(of: refused) == "jsonrpc.InvalidParams")
    }
}
