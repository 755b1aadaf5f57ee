import LifebusCore
import LifebusLifecycle
import Testing

/// Pushes at the end of a process that answered `willTerminate`: a silent push that falls due while the process is
/// going waits for it to go (`stepDeliverPushes`), and is then lost with it, as pushes due are at any other end of a
/// process (`pushesEnded`) — not left behind to be delivered with the app's next push.
@Suite("pushes due when a terminated app exits")
struct PushEndingTests {
    @Test("a push that fell due after willTerminate is lost when the process exits, not delivered with the next one")
    func aPushDueAfterWillTerminateIsLostWithTheProcess() {
        var harness = Harness(profile: .ios13)
        harness.run(.connect("A"))
        harness.run(.linger("A"))  // answers willTerminate, its process still there
        harness.run(.fire(.terminate("A", byUser: false)))
        #expect(harness.device.state(of: "A") == .notRunning)
        harness.run(.fire(.push("A", PushNotification(contentAvailable: true, alert: false, payload: #"{"n":1}"#))))
        harness.run(.crash("A"))  // the lingering process exits
        let start = harness.journal.count
        harness.run(.fire(.push("A", PushNotification(contentAvailable: true, alert: false, payload: #"{"n":2}"#))))
        let delivered = harness.journal[start...].compactMap { action -> String? in
            if case .pushRecord(let push) = action, push.event == .delivered { push.payload } else { nil }
        }
        #expect(delivered == [#"{"n":2}"#])
    }
}
