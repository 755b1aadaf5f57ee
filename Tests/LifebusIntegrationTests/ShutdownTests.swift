import Glibc
import LifebusProtocol
import Testing

/// SIGTERM keeps Protocol/README.md §4's promise: every pending request gets exactly one answer
/// (`lifebus.BrokerShuttingDown`, -32009) before its connection closes, and a connection opened while the broker
/// drains is told the same and closed.
@Suite struct ShutdownTests {
    /// Reads the broker's log until a line contains `text`.
    private func logShows(_ broker: BrokerFixture, _ text: String) -> Bool {
        while let line = broker.process.stderr.readLine(timeout: .seconds(10)) {
            if line.contains(text) { return true }
        }
        return false
    }

    @Test func pendingFireAndWaitAreAnsweredShuttingDownWhileAnAppIsMidCallback() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Slow", ["--delay", "willResignActive=30s"])
        defer {
            app.signal(SIGKILL)
            _ = app.wait()
        }
        #expect(try broker.reached("com.example.Slow", "active"))
        let firing = try RawPeer.controller(broker)
        let waiting = try RawPeer.controller(broker)
        let wait = #"{"app":"com.example.Slow","state":"suspended","timeoutMs":60000}"#
        waiting.client.sendLine(#"{"jsonrpc":"2.0","id":"w","method":"wait","params":\#(wait)}"#)
        firing.client.sendLine(#"{"jsonrpc":"2.0","id":"f","method":"fire","params":{"event":"home"}}"#)
        // The app prints each callback as it arrives: willResignActive is in its hands, unanswered.
        var midCallback = false
        while let line = app.stdout.readLine(timeout: .seconds(10)) {
            if line.contains("willResignActive") {
                midCallback = true
                break
            }
        }
        #expect(midCallback)
        broker.process.signal(SIGTERM)
        for (peer, id) in [(firing, "f"), (waiting, "w")] {
            let answer = parsed(peer.client.readLine())
            #expect(answer?["id"]?.stringValue == id)
            #expect(answer?["error"]?["code"]?.int64Value == -32009, "\(answer?.jsonText ?? "no answer")")
            #expect(answer?["error"]?["data"]?["name"]?.stringValue == "lifebus.BrokerShuttingDown")
            #expect(peer.client.waitForClose(), "then the connection closes")
        }
        #expect(broker.process.wait() == 0)
    }

    @Test func aConnectionOpenedWhileTheBrokerDrainsIsToldAndClosed() throws {
        let broker = try BrokerFixture()
        // An observer that stops reading holds the broker's drain open (its queued marks cannot be written).
        let observer = try broker.connect()
        observer.hello(role: "observer")
        let (app, _) = try RawPeer.app(broker, id: "com.example.Marker")
        let data = String(repeating: "x", count: 12 * 1024)
        for number in 1...60 {
            #expect(app.call("mark", #"{"name":"m\#(number)","data":{"pad":"\#(data)"}}"#)?["result"] != nil)
        }
        broker.process.signal(SIGTERM)
        #expect(logShows(broker, "broker stopping"))
        let late = try broker.connect()
        let told = parsed(late.readLine())
        #expect(told?["method"]?.stringValue == "lifebus.error")
        #expect(told?["params"]?["code"]?.int64Value == -32009, "\(told?.jsonText ?? "nothing")")
        #expect(late.waitForClose())
        observer.close()
        #expect(broker.process.wait() == 0)
        #expect(access(broker.socketPath, F_OK) != 0, "the socket is removed once the peers are gone")
    }
}
