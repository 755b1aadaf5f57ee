import Glibc
import LifebusProtocol
import Testing

/// `--journal-sync`: the broker fdatasyncs the journal before it answers a `fire` — seen from outside with strace,
/// which logs every write(2) and fdatasync(2) of the broker in order.
@Suite struct JournalSyncTests {
    /// Runs a broker under strace, fires `call` with the id `SYNCED`, and returns strace's lines.
    private func traceOneFire(_ arguments: [String]) throws -> [Substring] {
        let trace = BrokerFixture.uniqueSocketPath("strace") + ".txt"
        defer { unlink(trace) }
        let broker = try BrokerFixture(
            arguments: arguments,
            // LeakSanitizer cannot run under ptrace: an --asan build's broker checks no leaks here.
            wrapper: ["/usr/bin/strace", "-f", "-qq", "-s", "48", "-e", "trace=write,writev,sendmsg,fdatasync",
                      "-E", "ASAN_OPTIONS=detect_leaks=0", "-o", trace]
        )
        // strace blocks SIGTERM (it runs the broker with -o): stop the broker itself, named by its run record.
        let brokerPID = try #require(try broker.history().first?["pid"]?.int64Value)
        let controller = try RawPeer.controller(broker)
        let (app, _) = try RawPeer.app(broker, id: "com.example.Synced")
        #expect(app.call("ping")?["result"] != nil)
        #expect(try broker.reached("com.example.Synced", "active"))
        controller.client.sendLine(#"{"jsonrpc":"2.0","id":"SYNCED","method":"fire","params":{"event":"call"}}"#)
        #expect(app.answer(until: "willResignActive"))
        let answer = controller.pump { $0["id"]?.stringValue == "SYNCED" }
        #expect(answer?["result"]?["completed"]?.boolValue == true)
        app.client.close()
        kill(pid_t(brokerPID), SIGTERM)
        #expect(broker.process.wait() == 0)
        return try readBytes(trace).split(separator: 0x0A).map { Substring(String(decoding: $0, as: UTF8.self)) }
    }

    /// The index of the fire's answer in the trace, and whether an fdatasync lies between the journal's write of
    /// the call's transition and that answer.
    private func syncBeforeAnswer(_ trace: [Substring]) -> (answer: Int?, synced: Bool) {
        guard let answer = trace.firstIndex(where: { $0.contains(#"\"id\":\"SYNCED\""#) }) else { return (nil, false) }
        let journaled = trace[..<answer].lastIndex { $0.contains("write(") && $0.contains(#"\"type\":\"transition\""#) }
        guard let record = journaled else { return (answer, false) }
        return (answer, trace[record..<answer].contains { $0.contains("fdatasync(") && $0.hasSuffix("= 0") })
    }

    @Test func underJournalSyncTheTransitionIsOnDiskBeforeTheFireIsAnswered() throws {
        let trace = try traceOneFire(["--journal-sync"])
        let (answer, synced) = syncBeforeAnswer(trace)
        #expect(answer != nil, "the trace shows the answer")
        #expect(synced, "write(journal) … fdatasync … write(answer):\n\(trace.joined(separator: "\n"))")
    }

    @Test func byDefaultTheJournalIsWrittenButNotSynced() throws {
        let trace = try traceOneFire([])
        let (answer, synced) = syncBeforeAnswer(trace)
        #expect(answer != nil)
        #expect(!synced)
        #expect(!trace.contains { $0.contains("fdatasync(") })
    }
}
