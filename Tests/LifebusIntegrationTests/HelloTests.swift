import Glibc
import LifebusProtocol
import Testing

/// `hello` and `ping`: introductions, identity from the kernel, and the hello rules.
@Suite struct HelloTests {
    @Test func helloAnswersWithTheKernelsIdentityNotTheClaimedOne() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        // The peer claims another pid; the broker must ignore anything but SO_PEERCRED.
        let answer = parsed(client.hello(extra: #","pid":1,"uid":0"#))
        #expect(answer?["id"]?.stringValue == "hello")
        #expect(answer?["result"]?["peer"]?["pid"]?.int64Value == Int64(getpid()))
        #expect(answer?["result"]?["peer"]?["uid"]?.int64Value == Int64(getuid()))
        #expect(answer?["result"]?["peer"]?["gid"]?.int64Value == Int64(getgid()))
        #expect(answer?["result"]?["role"]?.stringValue == "controller")
        #expect(answer?["result"]?["protocolVersion"]?.int64Value == 1)
        #expect(answer?["result"]?["brokerVersion"]?.stringValue == LifebusVersion.current)
    }

    @Test(arguments: ["app", "controller", "observer"])
    func everyRoleCanSayHelloAndPing(role: String) throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        let extra = role == "app" ? #","app":{"id":"com.example.ping"}"# : ""
        #expect(parsed(client.hello(role: role, extra: extra))?["result"]?["role"]?.stringValue == role)
        client.sendLine(#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#)
        // An app is also sent didFinishLaunching (a request of the broker's): skip to the ping's answer.
        let pong = RawPeer(client: client).pump { $0["method"] == nil }
        #expect(pong?["id"]?.int64Value == 7)
        #expect(pong?["result"]?["pong"]?.boolValue == true)
    }

    @Test func aMethodBeforeHelloIsRefusedWithHelloRequired() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        let line = client.readLine()
        #expect(errorName(line) == "lifebus.HelloRequired")
        #expect(errorCode(line) == Int64(LifebusErrorCode.helloRequired.code))
        #expect(parsed(client.hello())?["result"] != nil, "the connection stays usable")
    }

    @Test func aSecondHelloIsRefused() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.hello()
        #expect(errorName(client.hello()) == "lifebus.AlreadyIntroduced")
    }

    @Test(arguments: [
        #"{"role":"king","protocolVersion":1}"#,
        #"{"protocolVersion":1}"#,
        #"{"role":"controller"}"#,
        #"{"role":"app","protocolVersion":1}"#,
        #"{"role":"controller","protocolVersion":"1"}"#,
    ])
    func helloWithWrongParamsIsInvalidParams(params: String) throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":\#(params)}"#)
        #expect(errorCode(client.readLine()) == -32602)
    }

    @Test func anUnsupportedProtocolVersionIsRefused() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.sendLine(
            #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"role":"controller","protocolVersion":99}}"#)
        #expect(errorName(client.readLine()) == "lifebus.UnsupportedProtocolVersion")
    }

    @Test func aSilentClientIsClosedAfterTheHelloTimeout() throws {
        let broker = try BrokerFixture(arguments: ["--hello-timeout", "200ms"])
        let silent = try broker.connect()
        let polite = try broker.connect()
        polite.hello()
        let notice = silent.readLine()
        #expect(errorName(notice) == "lifebus.HelloTimeout")
        let message = parsed(notice)?["params"]?["message"]?.stringValue
        #expect(message == "no hello within 200ms; closing", "\(notice ?? "")")
        #expect(silent.waitForClose())
        polite.sendLine(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        #expect(parsed(polite.readLine())?["result"] != nil, "a client that said hello is not timed out")
    }

    /// The broker's one timer is only ever moved earlier: the first peer's hello drops the deadline the timer is
    /// armed for, the timer still goes off then, finds nothing due, and is armed for the second peer's deadline.
    @Test func aLaterHelloDeadlineComesDueAfterTheEarlierOneWasDropped() throws {
        let broker = try BrokerFixture(arguments: ["--hello-timeout", "300ms"])
        let clock = ContinuousClock()
        let polite = try broker.connect()
        let connecting = clock.now  // the broker accepts the silent peer after this
        let silent = try broker.connect()
        polite.hello()
        let notice = silent.readLine()
        #expect(errorName(notice) == "lifebus.HelloTimeout", "\(notice ?? "")")
        #expect(clock.now - connecting >= .milliseconds(300), "not before its own deadline")
        #expect(silent.waitForClose())
    }

    @Test func cliPingWaitsForABrokerThatStartsLater() throws {
        let path = BrokerFixture.uniqueSocketPath("late")
        let ping = try ChildProcess("lifebus", ["ping", "--socket", path, "--wait", "20s"])
        let broker = try BrokerFixture(socketPath: path)
        let out = ping.stdout.readAll()
        #expect(ping.wait() == 0)
        #expect(out.contains("pong"))
        #expect(broker.stop() == 0)
    }

    @Test func cliPingWithoutABrokerExitsThree() throws {
        let result = try runCLI(["ping", "--socket", BrokerFixture.uniqueSocketPath("none")])
        #expect(result.status == 3)
        #expect(result.err.contains("no broker at"), "\(result.err)")
        #expect(result.err.contains("start it with `lifebusd`"), "\(result.err)")
    }

    @Test func cliPingPrintsOneJSONLinePerPing() throws {
        let broker = try BrokerFixture()
        let result = try runCLI(["ping", "--socket", broker.socketPath, "--count", "3", "--json"])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.compactMap { parsed($0)?["rttMs"]?.doubleValue }.count == 3)
    }

    @Test(arguments: [
        (["ping", "--count", "0"], "--count must be at least 1"),
        (["ping", "--wait", "soon"], "The value 'soon' is invalid for '--wait <duration>'"),
        (["nonsense"], "Unexpected argument 'nonsense'"),
    ])
    func cliUsageErrorsExitTwoSayingWhatIsWrong(arguments: [String], problem: String) throws {
        let result = try runCLI(arguments)
        #expect(result.status == 2)
        #expect(result.err.contains(problem), "\(result.err)")
        #expect(result.err.contains("Usage: lifebus"), "\(result.err)")
        #expect(result.out.isEmpty, "a usage error runs nothing: \(result.out)")
    }
}

/// The optional loopback TCP listener speaks the same protocol; a TCP peer has no kernel identity to report.
@Suite struct TCPListenerTests {
    @Test func aLoopbackTCPPeerWithTheTokenCanSayHelloAndPing() throws {
        let broker = try BrokerFixture(arguments: ["--tcp-port", "0"])
        let port = try broker.tcpPort()
        let client = try RawClient(tcpPort: port)
        let hello = parsed(client.hello(extra: #","token":"\#(try broker.tcpToken())""#))
        #expect(hello?["result"]?["peer"]?["pid"]?.int64Value == 0)
        client.sendLine(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        #expect(parsed(client.readLine())?["result"]?["pong"]?.boolValue == true)
        #expect(broker.stop() == 0)
    }
}
