import LifebusIO
import LifebusProtocol
import LifebusRPC

/// How a stopping broker keeps Protocol/README.md §4's promise that exactly one response follows each request:
/// every request still pending is answered `lifebus.BrokerShuttingDown` before its connection closes, a request
/// that arrives while the peers drain is answered the same, and a connection opened meanwhile is told so and closed.
extension Broker {
    static let shuttingDownError = RPCError(.brokerShuttingDown, "the broker is shutting down")

    /// Answers the `fire`s waiting for their events and the `wait`s not yet satisfied.
    func answerPendingRequestsShuttingDown() {
        for responder in events.takeAllWaiting() {
            responder.fail(Self.shuttingDownError)
        }
        for waiter in waiters.takeAll() {
            waiter.responder.fail(Self.shuttingDownError)
        }
    }

    /// A connection accepted after `shutdown()`: one `lifebus.error` notification, then close.
    func refuseShuttingDown(_ connection: Connection) {
        RPCPeer(connection: connection).notify(LifebusMethod.error, params: Self.shuttingDownError.json)
        connection.closeAfterFlush()
    }
}
