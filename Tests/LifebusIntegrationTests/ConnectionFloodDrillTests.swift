import Glibc
import LifebusProtocol
import Testing

/// Floods of connections and of talk before `hello`: the broker stays within its caps and a real client still
/// gets through; a connection it cannot take is told so, and `lifebus` says so.
@Suite struct ConnectionFloodDrillTests {
    @Test func silentConnectionsBeyondThePreHelloCapDoNotLockOutAPing() throws {
        // 128 descriptors: on a broker without the caps, 300 silent connections reach EMFILE.
        let broker = try BrokerFixture(arguments: ["--log-level", "error"], descriptorLimit: 128)
        var silent: [RawClient] = []
        for _ in 0..<300 {
            silent.append(try broker.connect())
        }
        let ping = try broker.cli(["ping"])
        #expect(ping.status == 0, "\(ping.err)")
        #expect(broker.openDescriptors() < 64, "the unintroduced are capped: \(broker.openDescriptors()) open")
        #expect(silent.first?.waitForHangUp(timeout: .seconds(5)) == true, "the oldest silent peer was closed")
        #expect(broker.stop() == 0)
    }

    @Test func twoHundredClientsSayingHelloAtOnceAllGetIn() throws {
        let broker = try BrokerFixture(arguments: ["--log-level", "error"])
        let hello =
            #"{"jsonrpc":"2.0","id":"hello","method":"hello","params":{"role":"controller","protocolVersion":1}}"#
        var clients: [RawClient] = []
        for _ in 0..<200 {
            let client = try broker.connect()
            client.sendLine(hello)
            clients.append(client)
        }
        let answered = clients.filter { parsed($0.readLine(timeout: .seconds(10)))?["result"] != nil }.count
        #expect(answered == 200, "peers that spoke are not pushed out by newcomers: \(answered) of 200 got in")
        #expect(broker.stop() == 0)
    }

    @Test func aFlooderThatReconnectsAtOnceDoesNotLockOutPings() throws {
        let broker = try BrokerFixture(arguments: ["--log-level", "error"], descriptorLimit: 128)
        let flooder = try ChildProcess("/usr/bin/python3", ["-u", "-c", Self.reconnectingFlooder, broker.socketPath])
        #expect(flooder.stdout.readLine(timeout: .seconds(10)) == "flooding")
        var failures: [String] = []
        for _ in 0..<10 {
            let ping = try broker.cli(["ping"])
            if ping.status != 0 { failures.append(ping.err) }
        }
        flooder.signal(SIGKILL)
        flooder.wait()
        #expect(failures.isEmpty, "\(failures.count) of 10 pings failed: \(failures.first ?? "")")
        #expect(broker.stop() == 0)
    }

    @Test func smallRequestsBeforeHelloAreBoundedAndEndTheConnection() throws {
        let broker = try BrokerFixture(arguments: ["--log-level", "error"])
        let client = try broker.connect()
        var flood: [UInt8] = []
        for id in 0..<2000 {
            flood += Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#.utf8) + [0x0A]
        }
        _ = client.sendWithoutBlocking(flood)
        #expect(client.waitForHangUp(timeout: .seconds(4)), "closed without having to read, before the hello timeout")
        let lines = client.lines.readAll(timeout: .seconds(5)).split(separator: "\n").map(String.init)
        #expect(lines.count == 17, "16 answers, then why: \(lines.count) lines")
        #expect(lines.dropLast().allSatisfy { errorName($0) == "lifebus.HelloRequired" })
        #expect(errorName(lines.last) == "lifebus.LimitExceeded")
        #expect(parsed(lines.last)?["params"]?["data"]?["limit"]?.stringValue == "messagesBeforeHello")
        #expect(try RawPeer.controller(broker).call("ping")?["result"] != nil)
        #expect(broker.stop() == 0)
    }

    @Test func theHelloTimeoutClosesAPeerThatDoesNotRead() throws {
        let broker = try BrokerFixture(arguments: ["--hello-timeout", "300ms", "--log-level", "error"])
        let client = try broker.connect()
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"status"}"#)
        #expect(client.waitForHangUp(timeout: .seconds(5)), "closed at the hello timeout without reading")
        let lines = client.lines.readAll(timeout: .seconds(5)).split(separator: "\n").map(String.init)
        #expect(errorName(lines.first) == "lifebus.HelloRequired")
        #expect(errorName(lines.last) == "lifebus.HelloTimeout")
        #expect(broker.stop() == 0)
    }

    @Test func overTheConnectionCapANewPeerIsToldAndTheCLISaysSo() throws {
        let broker = try BrokerFixture(arguments: ["--max-connections", "3", "--log-level", "error"])
        let held = try (0..<3).map { _ in try RawPeer.controller(broker) }
        let refused = try broker.connect()
        let line = refused.readLine(timeout: .seconds(5))
        #expect(errorName(line) == "lifebus.LimitExceeded")
        #expect(parsed(line)?["params"]?["data"]?["limit"]?.stringValue == "connections")
        #expect(refused.waitForClose(timeout: .seconds(5)))
        let ping = try broker.cli(["ping"])
        #expect(ping.status == 3)
        #expect(ping.err.contains("connection limit"), "\(ping.err)")
        for peer in held {
            #expect(peer.call("ping")?["result"] != nil, "the peers already in keep working")
        }
        held.first?.client.close()
        var retried = try broker.cli(["ping"])
        for _ in 0..<50 where retried.status != 0 {  // until the broker has seen that peer go
            retried = try broker.cli(["ping"])
        }
        #expect(retried.status == 0, "room again once a peer left: \(retried.err)")
        #expect(broker.stop() == 0)
    }

    @Test(arguments: [
        ["--max-connections", "0"], ["--max-unintroduced", "-1"], ["--max-output", "12"], ["--max-output", "2048GiB"],
        ["--write-timeout", "0s"], ["--max-unanswered", "many"],
    ])
    func limitOptionsOutOfRangeAreUsageErrors(arguments: [String]) throws {
        let daemon = try ChildProcess("lifebusd", arguments)
        let message = daemon.stderr.readAll()
        #expect(daemon.wait() == 2)
        #expect(message.contains("is not valid for '\(arguments[0])'"), "\(message)")
    }

    /// Keeps opening connections that never speak, closing its oldest past 100, until killed.
    private static let reconnectingFlooder = """
        import socket, sys
        path, held = sys.argv[1], []
        print("flooding", flush=True)
        while True:
            try:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(path)
                held.append(sock)
            except OSError:
                sock.close()
            if len(held) > 100:
                held.pop(0).close()
        """
}
