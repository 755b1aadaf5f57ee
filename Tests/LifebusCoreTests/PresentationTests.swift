import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// A visible notification offered to the app in the foreground beyond rows B60–B63 (`Protocol/lifecycle.md`,
/// "Visible notification"): the answer's options are journaled `presented`, an offer whose app's process ends
/// unanswered is not, and two notifications arriving while the app holds the first are each offered in turn. The
/// device checks its invariants after every input (`presentingNow` set exactly while the callback is outstanding).
@Suite("a visible notification in the foreground")
struct PresentationTests {
    private static func alert(_ n: Int) -> Step {
        .fire(.push("A", PushNotification(contentAvailable: false, alert: true, payload: #"{"n":\#(n)}"#)))
    }

    /// The push records from `start` on, as `event payload` and, for `presented`, its options.
    private static func pushes(_ harness: Harness, from start: Int) -> [String] {
        harness.journal[start...].compactMap { action -> String? in
            guard case .pushRecord(let push) = action else { return nil }
            return "\(push.event.rawValue) \(push.payload)" + (push.presentation.map { " \($0.summary)" } ?? "")
        }
    }

    /// A connected A in front holding its answers, and where its journal starts.
    private static func holdingA() -> (Harness, Int) {
        var harness = Harness(profile: .ios17)
        harness.run(.connect("A"))
        harness.run(.hold("A"))
        return (harness, harness.journal.count)
    }

    @Test("the options the app answers are journaled")
    func theAnswersOptionsAreJournaled() throws {
        var (harness, start) = Self.holdingA()
        harness.run(Self.alert(1))
        let (id, callback) = try #require(harness.outstanding["A"])
        #expect(callback == .willPresentNotification)
        harness.input(.callbackAnswered("A", id, handlerDuration: nil, presentation: [.banner, .sound]))
        #expect(Self.pushes(harness, from: start) == [#"delivered {"n":1}"#, #"presented {"n":1} banner,sound"#])
        #expect(harness.violations.isEmpty)
    }

    @Test("an offer whose app crashes before answering is not presented")
    func aCrashBeforeTheAnswerPresentsNothing() {
        var (harness, start) = Self.holdingA()
        harness.run(Self.alert(1))
        harness.run(.crash("A"))
        #expect(Self.pushes(harness, from: start) == [#"delivered {"n":1}"#])
    }

    @Test("notifications arriving while the app holds the first are each offered in turn")
    func eachNotificationIsOfferedInTurn() {
        var (harness, start) = Self.holdingA()
        harness.run(Self.alert(1))
        harness.run(Self.alert(2))
        harness.run(.release("A"))
        #expect(Self.pushes(harness, from: start) == [
            #"delivered {"n":1}"#, #"presented {"n":1} none"#, #"delivered {"n":2}"#, #"presented {"n":2} none"#,
        ])
    }
}
