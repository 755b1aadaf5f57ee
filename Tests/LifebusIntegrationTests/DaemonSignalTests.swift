import Glibc
import LifebusProtocol
import Testing

/// The signals a daemon gets from operators and log rotators: none but SIGINT/SIGTERM stops `lifebusd`.
@Suite struct DaemonSignalTests {
    /// Reads the broker's log until a line contains `text` (the signal was handled); false at end or timeout.
    private func logShows(_ broker: BrokerFixture, _ text: String) -> Bool {
        while let line = broker.process.stderr.readLine(timeout: .seconds(10)) {
            if line.contains(text) { return true }
        }
        return false
    }

    @Test(arguments: [(SIGHUP, "journal reopened"), (SIGUSR1, "status"), (SIGUSR2, "status")])
    func aMaintenanceSignalLeavesTheBrokerServing(signal: Int32, logged: String) throws {
        let broker = try BrokerFixture()
        let controller = try RawPeer.controller(broker)
        broker.process.signal(signal)
        #expect(logShows(broker, logged), "the broker handled signal \(signal)")
        #expect(controller.call("ping")?["result"]?["pong"]?.boolValue == true)
        #expect(broker.process.isAlive)
        #expect(broker.stop() == 0)
        #expect(access(broker.socketPath, F_OK) != 0, "a clean stop removes the socket")
    }

    @Test func sighupReopensTheJournalAfterItWasRotatedAway() throws {
        let broker = try BrokerFixture()
        let rotated = broker.journalPath + ".1"
        defer { unlink(rotated) }
        let (app, hello) = try RawPeer.app(broker, id: "com.example.rotate")
        #expect(hello?["result"] != nil)
        #expect(app.call("mark", #"{"name":"before"}"#)?["result"] != nil)
        #expect(rename(broker.journalPath, rotated) == 0)
        broker.process.signal(SIGHUP)
        #expect(logShows(broker, "journal reopened"))
        #expect(app.call("mark", #"{"name":"after"}"#)?["result"] != nil)
        let fresh = String(decoding: try readBytes(broker.journalPath), as: UTF8.self)
        let old = String(decoding: try readBytes(rotated), as: UTF8.self)
        #expect(fresh.contains(#""name":"after""#) && !fresh.contains(#""name":"before""#), "\(fresh)")
        #expect(old.contains(#""name":"before""#) && !old.contains(#""name":"after""#), "\(old)")
    }
}
