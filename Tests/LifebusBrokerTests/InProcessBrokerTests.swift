import Glibc
import LifebusBroker
import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC
import Logging
import Testing

/// A broker and its peers on one loop in the test's own process, as the daemon fuzzer (`Fuzz/`) runs them.
@Suite struct InProcessBrokerTests {
    /// Without the guard in the broker's kill (`Broker+Effects`), the SIGKILL meant for the app would end the test
    /// runner itself.
    @Test func anAppInTheBrokersOwnProcessIsKilledWithoutSignallingIt() throws {
        let loop = try EventLoop()
        let path = "/tmp/lifebus-broker-test-\(getpid()).sock"
        let logger = Logger(label: "lifebus-test") { _ in SwiftLogNoOpLogHandler() }
        let broker = Broker(configuration: BrokerConfiguration(socketPath: path), loop: loop, logger: logger)
        try broker.start()
        var peers: [RPCPeer] = []
        var appEnded = false
        var fireAnswer: Result<JSONValue, RPCError>?

        // Calls `then` with a peer that said hello with `params` (its callbacks answered at once).
        func introduce(_ params: String, onEnd: @escaping () -> Void = {}, then: @escaping (RPCPeer) -> Void) {
            Connection.connect(to: .unix(path), loop: loop) { result in
                guard case .success(let connection) = result else { return }
                let peer = RPCPeer(connection: connection)
                peers.append(peer)
                peer.onRequest = { _, responder in responder.succeed(.object([:])) }
                peer.onEnd = { _ in onEnd() }
                peer.start()
                peer.request("hello", params: try? JSONParser.parse(params)) { _ in then(peer) }
            }
        }
        let app = #"{"role":"app","protocolVersion":1,"app":{"id":"org.lifebus.self"}}"#
        introduce(app, onEnd: { appEnded = true }) { _ in
            introduce(#"{"role":"controller","protocolVersion":1}"#) { controller in
                // R62: terminate by the user kills the app at once (after its launch, queued first, completes).
                let fire = try? JSONParser.parse(#"{"event":"terminate","app":"org.lifebus.self","byUser":true}"#)
                controller.request("fire", params: fire) { answer in
                    fireAnswer = answer
                    broker.shutdown()
                }
            }
        }
        loop.run()
        for peer in peers { peer.close() }
        try loop.close()

        let transitions = (try? fireAnswer?.get())?["transitions"]?.arrayValue ?? []
        #expect(transitions.map { $0["outcome"]?.stringValue } == ["killed"])
        #expect(appEnded)
    }
}
