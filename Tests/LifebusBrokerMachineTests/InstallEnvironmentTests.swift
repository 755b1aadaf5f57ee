import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import Testing

/// `install` carries the client's variables for the manifest's `${VAR}`s (`Protocol/README.md` §16.5): the machine
/// hands them to the driver with the path or the inline manifest, and refuses a malformed `environment`.
@Suite struct InstallEnvironmentTests {
    @Test func theClientsVariablesGoWithThePathAndWithAnInlineManifest() {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        let (ticket, effects) = harness.request(
            controller, "install", #"{"path":"/apps/r.json","environment":{"REDIS_DIR":"/d","PATH":"/bin"}}"#)
        #expect(Self.source(in: effects, for: ticket)
            == .file("/apps/r.json", environment: ["REDIS_DIR": "/d", "PATH": "/bin"]))
        let (inline, more) = harness.request(controller, "install", #"{"manifest":{"id":"a"},"environment":{"A":""}}"#)
        #expect(Self.source(in: more, for: inline) == .object(["id": "a"], environment: ["A": ""]))
    }

    private static func source(in effects: [BrokerEffect], for ticket: Ticket) -> ManifestSource? {
        for case .install(ticket, let source) in effects { return source }
        return nil
    }

    @Test(arguments: [
        #"{"path":"/a.json","environment":["A"]}"#,
        #"{"path":"/a.json","environment":{"A":1}}"#,
        #"{"path":"/a.json","environment":{"1A":"x"}}"#,
        #"{"path":"/a.json","environment":{"A=B":"x"}}"#,
        #"{"path":"/a.json","environment":{"A":"x\u0000"}}"#,
    ])
    func aMalformedEnvironmentIsRefused(params: String) {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        let (ticket, effects) = harness.request(controller, "install", params)
        #expect(effects.errorName(of: ticket) == "jsonrpc.InvalidParams", "\(effects)")
    }
}
