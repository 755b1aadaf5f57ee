import Glibc
import LifebusProtocol
import Testing

/// Issue 7 item 10, "an app that exits exactly at its budget", made deterministic on the manual clock: the spawned
/// app holds `willTerminate` unanswered; with the broker stopped (SIGSTOP) an `advance` of exactly the budget is
/// written to it and then the app exits on its own, so both wait for the broker when it continues. It reads the
/// advance first (it came first), steps onto the budget's end and fires the watchdog; the exit it reads next is at
/// that same instant. `Protocol/lifecycle.md` ("At the exact instant, the watchdog wins"): outcome `watchdog`, one
/// transition, a `killed` record, and an `exited` record with the app's own exit status.
@Suite struct AppsExitAtBudgetTests {
    /// An app (Python, spawned by the broker) that answers every callback but `willTerminate` and exits with
    /// status 3 on SIGUSR1; it prints every line it gets to its log.
    static let program = """
        import json, os, signal, socket
        signal.signal(signal.SIGUSR1, lambda *_: os._exit(3))
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(os.environ["LIFEBUS_SOCKET"])
        def send(message):
            sock.sendall((json.dumps(message) + "\\n").encode())
        send({"jsonrpc": "2.0", "id": "hello", "method": "hello",
              "params": {"role": "app", "protocolVersion": 1, "app": {"id": os.environ["LIFEBUS_APP_ID"]}}})
        for line in sock.makefile("r"):
            print(line.rstrip("\\n"), flush=True)
            message = json.loads(line)
            if "id" in message and message.get("method") not in (None, "willTerminate"):
                send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
        """

    /// Polls until `condition` holds (20 ms apart, 10 s at most).
    static func until(_ condition: () -> Bool) -> Bool {
        AppsSupervisedTests.eventually(condition)
    }

    @Test func anAppThatExitsExactlyAtItsBudgetIsAWatchdogKillWithItsOwnExitStatus() throws {
        let broker = try BrokerFixture(arguments: ["--clock", "manual", "--advance-settle", "0s"])
        let id = "com.example.Punctual"
        let manifest = AppsSupervisedTests.manifest(
            id, in: broker.ownFolder, executable: "/usr/bin/python3", arguments: ["-u", "-c", Self.program])
        #expect(try broker.cli(["install", manifest]).status == 0)
        let log = broker.logPath(id)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let pid = Int32(try AppsSupervisedTests.processRecords(broker, id).first?["pid"]?.int64Value ?? 0)
        #expect(pid > 0)

        let controller = try RawPeer.controller(broker)
        #expect(try broker.cli(["fire", "terminate", id, "--no-wait"]).status == 0)
        #expect(Self.until { String(decoding: (try? readBytes(log)) ?? [], as: UTF8.self).contains("willTerminate") },
                "the app holds willTerminate")

        let brokerPID = broker.process.pid
        kill(brokerPID, SIGSTOP)
        #expect(Self.until { SupervisionCheck.processState(brokerPID) == "T" })
        controller.client.sendLine(#"{"jsonrpc":"2.0","id":"advance","method":"advance","params":{"byMs":5000}}"#)
        kill(pid, SIGUSR1)
        #expect(Self.until { SupervisionCheck.processState(pid) == "Z" }, "the app exited; the broker reaps it later")
        kill(brokerPID, SIGCONT)
        let advanced = controller.pump { $0["id"]?.stringValue == "advance" }
        #expect(advanced?["result"]?["nowMs"]?.doubleValue == 5000, "\(advanced?.jsonText ?? "no answer")")

        func events() throws -> [String] {
            try AppsSupervisedTests.processRecords(broker, id).map { $0["event"]?.stringValue ?? "" }
        }
        #expect(try AppsSupervisedTests.eventually { try events().contains("exited") })
        let terminations = try broker.transitions(of: id).filter { $0["callback"]?.stringValue == "willTerminate" }
        #expect(terminations.count == 1, "one transition: \(terminations.map(\.jsonText))")
        #expect(terminations.first.map(summary) == "willTerminate active->notRunning watchdog")
        #expect(terminations.first?["sentMs"]?.doubleValue == 0)
        let records = try AppsSupervisedTests.processRecords(broker, id)
        #expect(try events() == ["started", "connected", "launching", "killed", "exited"])
        #expect(records[3]["reason"]?.stringValue == "watchdog")
        #expect(records[3]["atMs"]?.doubleValue == 5000, "killed at the budget's virtual instant")
        #expect(records[4]["status"]?.int64Value == 3, "it exited on its own: \(records[4].jsonText)")
        #expect(records[4]["signal"] == .null)
        try SupervisionCheck.run(broker)
    }
}
