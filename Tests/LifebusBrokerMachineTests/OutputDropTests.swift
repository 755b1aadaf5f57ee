import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// An app the broker drops because it does not read its output is not journaled `crashed`: a `process` record
/// `disconnected` names why, and its ending is `disconnected`. An app whose connection simply ends still crashed.
@Suite struct OutputDropTests {
    private static func lastEntries(_ harness: MachineHarness) -> (process: ProcessRecord?, ending: TransitionRecord?) {
        var process: ProcessRecord?
        var ending: TransitionRecord?
        for entry in harness.journal.entries {
            switch entry {
            case .process(let record): process = record
            case .transition(let record): ending = record
            default: continue
            }
        }
        return (process, ending)
    }

    @Test(arguments: [OutputDrop.outputLimitExceeded, .writeStalled])
    func anAppDroppedForItsOutputEndsDisconnectedWithItsReason(_ drop: OutputDrop) throws {
        var (harness, app) = MachineHarness.notesLaunched()
        harness.feed(.ended(app, droppedFor: drop))
        let (process, ending) = Self.lastEntries(harness)
        #expect(process?.event == .disconnected)
        #expect(process?.reason == .drop(drop))
        #expect(process?.pid == 900)
        #expect(ending?.outcome == .disconnected)
        #expect(ending?.to == .notRunning)
        #expect(harness.machine.device.snapshot(of: "com.example.Notes")?.state == .notRunning)
    }

    @Test func aCallbackOutstandingWhenTheAppIsDroppedEndsDisconnected() throws {
        var (harness, app) = MachineHarness.notesLaunched()
        let (controller, _) = harness.introduce("controller")
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"home"}"#)
        #expect(fired.callbacks.map(\.method) == ["willResignActive"])
        let dropped = harness.feed(.ended(app, droppedFor: .writeStalled))
        let transitions = try #require(try dropped.reply(to: fire)?.get())["transitions"]?.arrayValue ?? []
        #expect(transitions.last?["callback"]?.stringValue == "willResignActive")
        #expect(transitions.last?["outcome"]?.stringValue == "disconnected")
    }

    @Test func anAppWhoseConnectionJustEndsStillCrashed() {
        var (harness, app) = MachineHarness.notesLaunched()
        harness.feed(.ended(app))
        let (process, ending) = Self.lastEntries(harness)
        #expect(process?.event != .disconnected)
        #expect(ending?.outcome == .crashed)
    }
}
