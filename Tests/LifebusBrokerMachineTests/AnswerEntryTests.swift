import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// `BrokerMachine.answered` (the driver's entry for an answer without a restoration payload) does what
/// `handle(.answered(…))` does: the same reply, the same journal, the same failed answer.
@Suite struct AnswerEntryTests {
    /// Rings a call at the active Notes app and answers its callback through `entry`; returns the fire's reply and
    /// the journal's transitions.
    private static func ring(
        answering timing: Result<AnswerTiming, RPCError>,
        through entry: (inout MachineHarness, AppID, CallbackID) -> [BrokerEffect]
    ) throws -> (JSONValue?, [String]) {
        var (harness, _) = MachineHarness.notesLaunched()
        harness.feed(.commitJournal)
        let (controller, _) = harness.introduce("controller")
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        let callback = try #require(fired.callbacks.first)
        _ = harness.advance(by: .milliseconds(3))
        let answered = entry(&harness, callback.app, callback.id)
        return (try answered.reply(to: fire)?.get(), harness.journal.writtenTransitions)
    }

    @Test(arguments: [
        Result<AnswerTiming, RPCError>.success(AnswerTiming(handlerMs: 0.5, handlerFailed: false)),
        .success(AnswerTiming(handlerMs: nil, handlerFailed: true)),
        .failure(RPCError.internalError("the delegate method threw")),
    ])
    func theDirectEntryIsTheInputsPath(timing: Result<AnswerTiming, RPCError>) throws {
        let viaInput = try Self.ring(answering: timing) { harness, app, id in
            harness.feed(BrokerInput.answered(app, id, timing))
        }
        let direct = try Self.ring(answering: timing) { harness, app, id in
            var effects: [BrokerEffect] = []
            harness.machine.answered(app, id, timing, at: harness.now, wallMs: 1_700_000_000_000, into: &effects)
            return effects
        }
        #expect(direct.0 != nil && direct.0 == viaInput.0)
        #expect(direct.1 == viaInput.1 && !direct.1.isEmpty)
    }
}
