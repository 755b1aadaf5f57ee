import LifebusJSON

/// A raw connection in the test process that speaks as an app or a controller: it sends requests with ids of its
/// own, reads until their answers, and (as an app) answers the broker's callback requests at once.
///
/// Owns its `RawClient` and the callbacks it has answered. Used by one test at a time. An app peer lives in the test
/// process, so the broker knows it by the test's pid: use it only where no watchdog can fire (time scale 1, and
/// every callback answered at once), or the broker would SIGKILL the test runner.
final class RawPeer {
    let client: RawClient
    private(set) var answeredCallbacks: [String] = []
    private(set) var notifications: [JSONValue] = []
    private var nextID = 0

    /// Connects and says hello as a controller.
    static func controller(_ broker: BrokerFixture) throws -> RawPeer {
        let peer = RawPeer(client: try broker.connect())
        guard parsed(peer.client.hello(role: "controller"))?["result"] != nil else {
            throw FixtureError("the broker refused a controller hello")
        }
        return peer
    }

    /// Connects and says hello as app `id`; returns the peer and the hello answer (a result or an error).
    static func app(_ broker: BrokerFixture, id: String, flags: String = "") throws -> (RawPeer, JSONValue?) {
        let peer = RawPeer(client: try broker.connect())
        let answer = parsed(peer.client.hello(role: "app", extra: #","app":{"id":"\#(id)"\#(flags)}"#))
        return (peer, answer)
    }

    init(client: RawClient) {
        self.client = client
    }

    /// Sends a request and returns its response, answering callbacks and keeping notifications meanwhile.
    func call(_ method: String, _ params: String = "{}", timeout: Duration = .seconds(20)) -> JSONValue? {
        nextID += 1
        let id = "t\(nextID)"
        client.sendLine(#"{"jsonrpc":"2.0","id":"\#(id)","method":"\#(method)","params":\#(params)}"#)
        return pump(timeout: timeout) { $0["id"]?.stringValue == id && $0["method"] == nil }
    }

    /// Reads until a message satisfies `predicate` (checked after a callback request is answered); `nil` on end of
    /// stream or timeout.
    @discardableResult
    func pump(timeout: Duration = .seconds(20), until predicate: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Deadline(after: timeout)
        while !deadline.hasPassed {
            guard let line = client.readLine(timeout: .milliseconds(Int64(deadline.remainingMilliseconds))),
                let message = parsed(line)
            else {
                return nil
            }
            if let method = message["method"]?.stringValue {
                if let id = message["id"] {
                    client.sendLine(#"{"jsonrpc":"2.0","id":\#(id.jsonText),"result":{}}"#)
                    answeredCallbacks.append(method)
                } else {
                    notifications.append(message)
                }
            }
            if predicate(message) { return message }
        }
        return nil
    }

    /// Answers callbacks until the broker has sent `callback` (and it was answered).
    @discardableResult
    func answer(until callback: String, timeout: Duration = .seconds(20)) -> Bool {
        pump(timeout: timeout) { $0["method"]?.stringValue == callback && $0["id"] != nil } != nil
    }
}
