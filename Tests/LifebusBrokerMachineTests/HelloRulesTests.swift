import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// `hello` first, once, in the protocol version the broker speaks; then what each role may call.
@Suite struct HelloRulesTests {
    @Test func aMethodBeforeHelloIsRefusedWithHelloRequired() {
        var harness = MachineHarness()
        let (session, _) = harness.connect()
        let (ticket, effects) = harness.request(session, "status")
        #expect(effects.errorName(of: ticket) == "lifebus.HelloRequired")
        #expect(effects.closing(of: session) == nil)
    }

    @Test func helloAnswersWithTheKernelsIdentityAndTheProfile() throws {
        var harness = MachineHarness()
        let (session, _) = harness.connect(uid: 501, pid: 77)
        let (ticket, effects) = harness.request(
            session, "hello", #"{"role":"controller","protocolVersion":1,"peer":{"pid":1,"uid":0,"gid":0}}"#)
        let result = try #require(try effects.reply(to: ticket)?.get())
        #expect(result["peer"]?["pid"]?.int64Value == 77)
        #expect(result["peer"]?["uid"]?.int64Value == 501)
        #expect(result["profile"]?.stringValue == "ios7")
        #expect(effects.contains { if case .introduced(session) = $0 { true } else { false } })
    }

    @Test func aSecondHelloIsRefused() {
        var harness = MachineHarness()
        let (session, _) = harness.introduce("observer")
        let (ticket, effects) = harness.request(session, "hello", #"{"role":"observer","protocolVersion":1}"#)
        #expect(effects.errorName(of: ticket) == "lifebus.AlreadyIntroduced")
    }

    @Test func anUnsupportedProtocolVersionIsRefusedAndTheSessionStaysUnintroduced() {
        var harness = MachineHarness()
        let (session, _) = harness.connect(spoke: true)
        let (refused, effects) = harness.request(session, "hello", #"{"role":"controller","protocolVersion":9}"#)
        #expect(effects.errorName(of: refused) == "lifebus.UnsupportedProtocolVersion")
        let (ticket, after) = harness.request(session, "status")
        #expect(after.errorName(of: ticket) == "lifebus.HelloRequired")
    }

    @Test func aSecondLiveConnectionOfOneAppIDIsRefused() {
        var harness = MachineHarness()
        _ = harness.introduce("app", app: "com.example.Notes")
        let (second, _) = harness.connect(spoke: true)
        let (ticket, effects) = harness.request(
            second, "hello", #"{"role":"app","protocolVersion":1,"app":{"id":"com.example.Notes"}}"#)
        #expect(effects.errorName(of: ticket) == "lifebus.AppIDInUse")
    }

    @Test(arguments: [
        ("observer", "fire", "lifebus.NotAllowedForRole"),
        ("app", "status", "lifebus.NotAllowedForRole"),
        ("controller", "mark", "lifebus.NotAllowedForRole"),
        ("controller", "didBecomeActive", "jsonrpc.MethodNotFound"),
        ("observer", "noSuchMethod", "jsonrpc.MethodNotFound"),
    ])
    func eachRoleCallsOnlyItsMethods(role: String, method: String, error: String) {
        var harness = MachineHarness()
        let (session, _) = harness.introduce(role, app: role == "app" ? "com.example.Notes" : nil)
        let (ticket, effects) = harness.request(session, method, "{}")
        #expect(effects.errorName(of: ticket) == error)
    }

    @Test func pingAnswersWithTheBrokersMonotonicTime() throws {
        var harness = MachineHarness()
        let (session, _) = harness.introduce("controller")
        _ = harness.advance(by: .milliseconds(250))
        let (ticket, effects) = harness.request(session, "ping")
        let result = try #require(try effects.reply(to: ticket)?.get())
        #expect(result["brokerTime"]?.int64Value == Int64(harness.now.nanoseconds))
    }

    @Test func aTCPPeerMustPresentTheToken() {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.tcpToken = Array("c0ffee".utf8)
        var harness = MachineHarness(settings: settings)
        for (token, allowed) in [(nil, false), ("wrong", false), ("c0ffee", true)] as [(String?, Bool)] {
            let session = SessionID(100 + UInt64(allowed ? 1 : token == nil ? 2 : 3))
            harness.feed(.accepted(session, identity: PeerIdentity(pid: 5, uid: 5, gid: 5), overTCP: true, spoke: true))
            let tokenPart = token.map { #","token":"\#($0)""# } ?? ""
            let (ticket, effects) = harness.request(
                session, "hello", #"{"role":"controller","protocolVersion":1\#(tokenPart)}"#)
            if allowed {
                #expect(effects.succeeded(ticket))
            } else {
                #expect(effects.errorName(of: ticket) == "lifebus.Unauthorized")
                #expect(effects.closing(of: session) == .afterFlush)
            }
        }
    }
}

/// An app that adopts scenes cannot declare `UIApplicationExitsOnSuspend` (available only up to iOS 13.0, where
/// scenes begin): its `hello` is refused naming `app.exitsOnSuspend`, whether the hello or its installed manifest
/// declares the key, and nothing reaches the core.
@Suite struct ScenesWithExitsOnSuspendTests {
    static let scenes = MachineSettings(device: DeviceConfiguration(profile: .ios17))

    @Test func aHelloWithScenesAndExitsOnSuspendIsRefusedNamingTheMember() throws {
        var harness = MachineHarness(settings: Self.scenes)
        let (session, _) = harness.connect(spoke: true)
        let (ticket, effects) = harness.request(session, "hello", #"""
            {"role":"app","protocolVersion":1,"app":{"id":"com.example.Notes","scenes":true,"exitsOnSuspend":true}}
            """#)
        #expect(effects.errorName(of: ticket) == "jsonrpc.InvalidParams")
        let message = Self.message(effects.reply(to: ticket))
        #expect(message.contains("app.exitsOnSuspend") && message.contains("13.0"), "\(message)")
        #expect(harness.machine.device.pid(of: "com.example.Notes") == nil, "the core never heard of the app")
    }

    @Test func anInstalledManifestsExitsOnSuspendWithAHelloThatAdoptsScenesIsRefusedSayingSo() throws {
        var harness = MachineHarness(settings: Self.scenes)
        let (controller, _) = harness.introduce("controller")
        let (install, _) = harness.request(controller, "install", #"{"path":"/apps/notes.json"}"#)
        harness.feed(.installed(install, .success(ProcessesTests.notes)))
        let (session, _) = harness.connect(spoke: true)
        let (ticket, effects) = harness.request(
            session, "hello", #"{"role":"app","protocolVersion":1,"app":{"id":"com.example.Notes","scenes":true}}"#)
        #expect(Self.message(effects.reply(to: ticket)).contains("installed manifest declares"))
        let (plain, accepted) = harness.request(
            harness.connect(spoke: true).0, "hello",
            #"{"role":"app","protocolVersion":1,"app":{"id":"com.example.Notes"}}"#)
        #expect((try? accepted.reply(to: plain)?.get()) != nil, "without scenes the manifest's flag is accepted")
    }

    static func message(_ reply: Result<JSONValue, RPCError>?) -> String {
        guard case .failure(let error) = reply else { return "not refused" }
        return error.message
    }
}
