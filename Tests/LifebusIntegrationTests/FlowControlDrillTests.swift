import Glibc
import LifebusProtocol
import Testing

/// One flow-control rule: a peer that keeps reading is never disconnected, whatever its pipelining (reading pauses,
/// by bytes and by lines, before the output cap); a peer that stops reading is, within the write-stall time, and an
/// app so dropped ends `disconnected` with its reason journaled, not `crashed`.
@Suite(.serialized) struct FlowControlDrillTests {
    /// A busy loop on CPU 0 (killed by the caller).
    private static func cpuHog() throws -> ChildProcess {
        try ChildProcess(HelperScripts.executable("taskset"), ["-c", "0", "/bin/sh", "-c", "while :; do :; done"])
    }

    /// Pins every thread of `pid` to CPU 0.
    private static func pinToCPU0(_ pid: pid_t) throws -> Int32 {
        let taskset = try ChildProcess(HelperScripts.executable("taskset"), ["-a", "-p", "-c", "0", "\(pid)"])
        return taskset.waitForExit()
    }

    @Test func anAppThatPipelinesAndReadsIsNeverDroppedOnABusyCore() throws {
        let broker = try BrokerFixture(arguments: ["--log-level", "error"])
        #expect(try Self.pinToCPU0(broker.process.pid) == 0)
        let hog = try Self.cpuHog()
        defer {
            hog.signal(SIGKILL)
            hog.wait()
        }
        let run = try HelperScripts.python(
            "pipelining_app.py", [broker.socketPath, "com.example.Pipeliner", "100000", "20000"],
            timeout: .seconds(300))
        #expect(run.status == 0, "\(run.err)")
        let summary = parsed(run.out.split(separator: "\n").last.map(String.init))
        #expect(summary?["dropped"]?.boolValue == false, "a reading peer was disconnected: \(run.out)")
        #expect(summary?["marks"]?.int64Value == 100_000, "\(run.out)")
        #expect(summary?["began"]?.int64Value == 20_000, "\(run.out)")
        #expect(summary?["ended"]?.int64Value == 20_000, "\(run.out)")
        #expect(summary?["errors"]?.arrayValue?.isEmpty == true, "\(run.out)")
        let entries = try broker.history("com.example.Pipeliner")
        #expect(!entries.contains { $0["event"]?.stringValue == "disconnected" })
        #expect(broker.stop() == 0)
    }

    @Test func anAppThatStopsReadingIsDisconnectedWithinTheStallTimeAndJournaledSo() throws {
        let broker = try BrokerFixture(arguments: ["--write-timeout", "1s", "--log-level", "error"])
        let (app, hello) = try RawPeer.app(broker, id: "com.example.Deaf")
        #expect(hello?["result"] != nil)
        #expect(app.answer(until: "didBecomeActive"))
        #expect(try broker.reached("com.example.Deaf", "active"))
        var line: [UInt8] = []
        for index in 0..<1000 {
            line += Array(#"{"jsonrpc":"2.0","id":"m\#(index)","method":"mark","params":{"name":"m"}}"#.utf8) + [0x0A]
        }
        var blocked = false
        for _ in 0..<1000 where !blocked {
            blocked = app.client.sendWithoutBlocking(line) < line.count
        }
        #expect(blocked, "the broker stopped reading a peer that does not read its answers")
        let clock = ContinuousClock()
        let started = clock.now
        #expect(app.client.waitForHangUp(timeout: .seconds(15)), "a peer that does not read is disconnected")
        #expect(clock.now - started < .seconds(5), "dropped after \(clock.now - started), the stall time is 1 s")
        let entries = try broker.history("com.example.Deaf")
        let drop = entries.last { $0["type"]?.stringValue == "process" }
        #expect(drop?["event"]?.stringValue == "disconnected", "\(drop?.jsonText ?? "no process record")")
        #expect(drop?["reason"]?.stringValue == "writeStalled")
        let ending = entries.last { $0["type"]?.stringValue == "transition" }
        #expect(ending?["outcome"]?.stringValue == "disconnected", "\(ending.map(summary) ?? "no ending")")
        #expect(ending?["to"]?.stringValue == "notRunning")
        #expect(broker.stop() == 0)
    }
}
