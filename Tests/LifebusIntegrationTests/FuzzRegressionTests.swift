import Glibc
import LifebusProtocol
import Testing

/// Crashes the whole-daemon fuzzer (`Fuzz/`, `LifebusDaemonFuzzer`) found, each replayed against a real `lifebusd`.
/// The fuzzer's own inputs are kept in `Fuzz/regressions/daemon/`, which `Fuzz/run` replays first.
@Suite("Daemon fuzzer regressions")
struct FuzzRegressionTests {
    @Test("A fire inside a batch answered after its controller has gone: no trap (the batch answer is dropped)")
    func batchAnsweredAfterItsControllerLeft() throws {
        let broker = try BrokerFixture()
        let swarm = try AppSwarm(broker: broker, count: 1, prefix: "org.lifebus.batch")
        #expect(swarm.pump(until: Deadline(after: .seconds(20))) { swarm.apps[0].answered.count == 2 })
        swarm.answers = { _, method in method != "didReceiveMemoryWarning" }
        let controller = try broker.connect()
        #expect(parsed(controller.hello())?["result"] != nil)
        controller.sendLine(#"[{"jsonrpc":"2.0","id":"w","method":"fire","params":{"event":"memory-warning"}}]"#)
        #expect(swarm.pump(until: Deadline(after: .seconds(20))) { swarm.apps[0].held.count == 1 })
        controller.close()
        // A round trip on another connection: the broker has seen the controller go before the app answers.
        let probe = try RawPeer.controller(broker)
        #expect(probe.call("ping")?["result"] != nil)

        swarm.answer(swarm.apps[0].held[0], app: 0)  // the event completes; its batch has nowhere to go
        let deadline = Deadline(after: .seconds(20))
        var recorded = false
        while !recorded, !deadline.hasPassed, let answer = probe.call("history", #"{"app":"org.lifebus.batch.0"}"#) {
            recorded = answer["result"]?["entries"]?.arrayValue?.contains {
                $0["callback"]?.stringValue == "didReceiveMemoryWarning"
            } == true
        }
        #expect(recorded)
        #expect(probe.call("ping")?["result"]?["pong"] == .bool(true))
        #expect(broker.process.isAlive)
        #expect(broker.stop() == 0)
    }
}
