import Glibc
import LifebusIO
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC
import Testing

/// `BrokerConnector` on a real loop and socket: it finds a broker that starts listening after the first attempt,
/// gives up when its policy says so, and a cancelled run leaves nothing open. Each test ends with the loop closed.
@Suite struct BrokerConnectorTests {
    static let hello = HelloParams(role: .controller, clientName: "test")
    static func socketPath(_ name: String) -> String {
        let path = "/tmp/lifebus-rpc-test-\(getpid())-\(name).sock"
        unlink(path)
        return path
    }

    /// A listener that answers every `hello` as a broker would.
    final class StandIn {
        var listener: Listener?
        var peers: [RPCPeer] = []

        func listen(at path: String, loop: EventLoop) throws {
            listener = try Listener.listen(on: .unix(path), loop: loop) { [self] connection in
                let peer = RPCPeer(connection: connection)
                peer.onRequest = { _, responder in
                    responder.succeed(HelloResult(
                        role: .controller, peer: PeerIdentity(pid: 1, uid: 2, gid: 3), profile: .ios7
                    ).json)
                }
                peer.start()
                peers.append(peer)
            }
        }

        func close() {
            listener?.close()
            peers.forEach { $0.close() }
        }
    }

    @Test func aBrokerThatStartsListeningLaterIsFoundByTheRetries() throws {
        let loop = try EventLoop()
        let path = Self.socketPath("later")
        let standIn = StandIn()
        let connector = BrokerConnector(path: path, hello: Self.hello, loop: loop)
        var retries: [Duration] = []
        connector.onRetry = { failure, delay in
            #expect(!failure.isBusy)
            retries.append(delay)
            if retries.count == 3 { try? standIn.listen(at: path, loop: loop) }
        }
        var opened: HelloResult?
        connector.connect(policy: .command(retryFor: .seconds(20))) { result in
            if case .success(let (peer, hello)) = result {
                opened = hello
                peer.close()
            }
            standIn.close()
        }
        loop.run()
        connector.cancel()
        try loop.close()
        #expect(opened?.peer == PeerIdentity(pid: 1, uid: 2, gid: 3))
        #expect(retries == [.milliseconds(10), .milliseconds(20), .milliseconds(40)])
    }

    @Test func itGivesUpOnTheFailureOnceTheDeadlineHasPassed() throws {
        let loop = try EventLoop()
        let connector = BrokerConnector(path: Self.socketPath("never"), hello: Self.hello, loop: loop)
        var retries = 0
        connector.onRetry = { _, _ in retries += 1 }
        let started = EventLoop.monotonicNanoseconds()
        var failure: BrokerSession.Failure?
        connector.connect(policy: .command(retryFor: .milliseconds(100))) { result in
            if case .failure(let error) = result { failure = error }
        }
        loop.run()
        let elapsed = EventLoop.monotonicNanoseconds() - started
        try loop.close()
        guard case .unreachable(_, let error) = failure else {
            Issue.record("expected unreachable, got \(String(describing: failure))")
            return
        }
        #expect(error.isNotFound)
        #expect(retries >= 3)
        #expect(elapsed >= 100_000_000, "the last attempt is made at the deadline, not before")
    }

    @Test func aCancelledRunNeverCompletesAndLeavesNoHandleOpen() throws {
        let loop = try EventLoop()
        let connector = BrokerConnector(path: Self.socketPath("cancelled"), hello: Self.hello, loop: loop)
        connector.onRetry = { _, _ in connector.cancel() }
        var completed = false
        connector.connect(policy: .command(retryFor: .seconds(60))) { _ in completed = true }
        loop.run()
        try loop.close()
        #expect(!completed)
    }
}
