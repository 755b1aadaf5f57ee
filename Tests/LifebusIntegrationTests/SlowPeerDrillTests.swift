import Glibc
import LifebusProtocol
import Testing

/// Peers that do not read what they are sent, or vanish while being written to: the broker's memory stays flat, the
/// others are served meanwhile, and nothing a peer did send is lost.
@Suite struct SlowPeerDrillTests {
    /// 1,000 `status` requests as lines, ids from `first`.
    private static func statusRequests(from first: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for id in first..<(first + 1000) {
            bytes += Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#.utf8) + [0x0A]
        }
        return bytes
    }

    @Test func aControllerThatNeverReadsLeavesTheBrokerFlatAndOthersServed() throws {
        let broker = try BrokerFixture(arguments: ["--write-timeout", "2s", "--log-level", "error"])
        let flooder = try RawPeer.controller(broker)
        let other = try RawPeer.controller(broker)
        #expect(other.call("ping")?["result"] != nil)
        let idle = broker.residentBytes()
        // Up to 300,000 requests (about 40 MB of answers), stopping when the broker stops taking them.
        var sentRequests = 0
        var blocked = false
        while sentRequests < 300_000, !blocked {
            let chunk = Self.statusRequests(from: sentRequests)
            blocked = flooder.client.sendWithoutBlocking(chunk) < chunk.count
            sentRequests += 1000
        }
        var slowestPing = Duration.zero
        for _ in 0..<5 {
            let clock = ContinuousClock()
            let started = clock.now
            #expect(other.call("ping", timeout: .seconds(5))?["result"] != nil)
            slowestPing = max(slowestPing, clock.now - started)
        }
        let grown = broker.residentBytes() - idle
        #expect(blocked, "the broker stopped reading a peer that does not read its answers")
        #expect(grown < 16 << 20, "broker RSS grew \(grown >> 20) MiB (idle \(idle >> 20) MiB)")
        #expect(slowestPing < .seconds(1), "another controller's ping took \(slowestPing)")
        #expect(flooder.client.waitForHangUp(timeout: .seconds(15)), "a stalled peer is disconnected")
        #expect(other.call("ping")?["result"] != nil)
        #expect(broker.stop() == 0)
    }

    @Test func aPeerAtItsUnansweredLimitIsNotReadUntilHalfAreAnswered() throws {
        let broker = try BrokerFixture(arguments: ["--max-unanswered", "8", "--log-level", "error"])
        let controller = try RawPeer.controller(broker)
        let params = #"{"app":"com.example.Never","state":"active","timeoutMs":500}"#
        var burst = ""
        for id in 0..<8 {
            burst += #"{"jsonrpc":"2.0","id":"w\#(id)","method":"wait","params":\#(params)}"# + "\n"
        }
        burst += #"{"jsonrpc":"2.0","id":"p","method":"ping"}"#
        controller.client.sendLine(burst)
        var order: [String] = []
        while order.last != "p", let line = controller.client.readLine(timeout: .seconds(10)) {
            order.append(parsed(line)?["id"]?.stringValue ?? "?")
        }
        #expect(order.last == "p")
        #expect(order.filter { $0.hasPrefix("w") }.count >= 4, "the ping waited for half the waits: \(order)")
        #expect(broker.stop() == 0)
    }

    @Test func anObserverThatNeverReadsIsDisconnectedWhileTheAppIsServed() throws {
        let broker = try BrokerFixture(arguments: [
            "--max-output", "64KiB", "--write-timeout", "1s", "--log-level", "error",
        ])
        let observer = RawPeer(client: try broker.connect())
        #expect(parsed(observer.client.hello(role: "observer"))?["result"] != nil)
        let (app, hello) = try RawPeer.app(broker, id: "com.example.Marker")
        #expect(hello?["result"] != nil)
        let data = String(repeating: "d", count: 8 * 1024)
        var answered = 0
        for index in 0..<200 {
            let answer = app.call("mark", #"{"name":"m\#(index)","data":{"blob":"\#(data)"}}"#, timeout: .seconds(5))
            if answer?["result"] != nil { answered += 1 }
        }
        #expect(answered == 200, "every mark is answered although an observer does not read")
        #expect(observer.client.waitForHangUp(timeout: .seconds(10)), "the observer over its output cap is dropped")
        let received = observer.client.lines.readAll(timeout: .seconds(5)).split(separator: "\n")
        #expect(!received.isEmpty && received.count < 200, "what was queued is flushed, then the end")
        #expect(broker.stop() == 0)
    }

    @Test func aStopDoesNotWaitForAPeerDroppedForItsOutputToRead() throws {
        let broker = try BrokerFixture(arguments: [
            "--max-output", "64KiB", "--write-timeout", "60s", "--log-level", "error",
        ])
        let observer = RawPeer(client: try broker.connect())
        #expect(parsed(observer.client.hello(role: "observer"))?["result"] != nil)
        let (app, _) = try RawPeer.app(broker, id: "com.example.Marker")
        let data = String(repeating: "d", count: 8 * 1024)
        for index in 0..<100 {
            #expect(app.call("mark", #"{"name":"m\#(index)","data":{"blob":"\#(data)"}}"#)?["result"] != nil)
        }
        let clock = ContinuousClock()
        let started = clock.now
        #expect(broker.stop() == 0)
        #expect(clock.now - started < .seconds(10), "the stop took \(clock.now - started)")
    }

    @Test func aPeerClosingInTheMiddleOfALargeWriteLeavesTheBrokerServing() throws {
        let broker = try BrokerFixture(arguments: ["--log-level", "error"])
        let (app, _) = try RawPeer.app(broker, id: "com.example.Big")
        // Marks are at most 16 KiB of data each (§15), so 60 of them make the large write: ~900 KiB to the observer.
        let blob = String(repeating: "b", count: 15 * 1024)
        for round in 0..<3 {
            let observer = try broker.connect()
            #expect(parsed(observer.hello(role: "observer"))?["result"] != nil)
            for index in 0..<60 {
                let params = #"{"name":"big","data":{"b":"\#(blob)"}}"#
                app.client.sendLine(
                    #"{"jsonrpc":"2.0","id":"big\#(round)-\#(index)","method":"mark","params":\#(params)}"#)
            }
            var first = [UInt8](repeating: 0, count: 4096)
            var poller = pollfd(fd: observer.descriptor, events: Int16(POLLIN), revents: 0)
            #expect(poll(&poller, 1, 10_000) == 1)
            #expect(read(observer.descriptor, &first, first.count) > 0)
            observer.close()  // with most of the marks unread: the broker's write fails mid-line
            #expect(app.pump { $0["id"]?.stringValue == "big\(round)-59" }?["result"] != nil)
        }
        #expect(broker.process.isAlive, "no SIGPIPE death")
        #expect(try RawPeer.controller(broker).call("ping")?["result"] != nil)
        #expect(broker.stop() == 0)
    }

    @Test func anAppThatAnsweredWillTerminateAndClosedIsJournaledOK() throws {
        let broker = try BrokerFixture(arguments: ["--log-level", "error"])
        let app = try ChildProcess("/usr/bin/python3", ["-u", "-c", Self.answerThenCloseApp, broker.socketPath,
                                                        "com.example.Leaver", "\(broker.process.pid)"])
        #expect(try broker.reached("com.example.Leaver", "active"))
        let fired = try broker.cli(["fire", "terminate", "--app", "com.example.Leaver", "--json"])
        #expect(fired.status == 0, "\(fired.err)")
        #expect(app.waitForExit() == 0)
        let terminate = try broker.transitions(of: "com.example.Leaver").last {
            $0["callback"]?.stringValue == "willTerminate"
        }
        #expect(terminate?["outcome"]?.stringValue == "ok",
                "the answer sent before closing counts: \(String(describing: terminate))")
        #expect(broker.stop() == 0)
    }

    /// An app that, on `willTerminate`, stops the broker (SIGSTOP), writes a `ping` and then its answer, closes, and
    /// lets the broker run again: the broker's answer to the ping then fails (EPIPE) before it has read the answer.
    private static let answerThenCloseApp = """
        import json, os, signal, socket, sys
        path, app, broker = sys.argv[1], sys.argv[2], int(sys.argv[3])
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        def line(message):
            return (json.dumps(message) + "\\n").encode()
        sock.sendall(line({"jsonrpc": "2.0", "id": "hello", "method": "hello",
                           "params": {"role": "app", "protocolVersion": 1, "app": {"id": app}}}))
        for text in sock.makefile("r"):
            message = json.loads(text)
            if "method" in message and "id" in message:
                answer = line({"jsonrpc": "2.0", "id": message["id"], "result": {}})
                if message["method"] == "willTerminate":
                    os.kill(broker, signal.SIGSTOP)
                    while open(f"/proc/{broker}/stat").read().rsplit(") ", 1)[1][0] != "T":
                        pass
                    sock.sendall(line({"jsonrpc": "2.0", "id": "last", "method": "ping"}) + answer)
                    sock.close()
                    os.kill(broker, signal.SIGCONT)
                    break
                sock.sendall(answer)
        """
}
