import LifebusJSON
import Testing

/// One kill, one reason: a spawned app killed through the supervisor is journaled `killed` and then `exited` with the
/// same `reason`, whoever ended it (the user swiping it away, the system terminating a suspended app).
@Suite struct AppsKillReasonTests {
    /// A swipe kills the app in front (`user`); a terminate by the system kills a suspended app without a callback
    /// (`system`). Before the one `KillReason`, both were journaled `exited` with `terminate`.
    @Test(arguments: [(["--by-user"], "user"), ([], "system")])
    func aKillIsJournaledWithOneReasonInBothItsRecords(flags: [String], reason: String) throws {
        let broker = try BrokerFixture()
        let id = "com.example.Killed"
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        if flags.isEmpty {
            #expect(try broker.cli(["fire", "home"]).status == 0)
            #expect(try broker.reached(id, "suspended"))
        }
        #expect(try broker.cli(["fire", "terminate", id] + flags).status == 0)
        func ending() throws -> [JSONValue] {
            try AppsSupervisedTests.processRecords(broker, id).filter {
                ["killed", "exited"].contains($0["event"]?.stringValue)
            }
        }
        #expect(try AppsSupervisedTests.eventually { try ending().count == 2 })
        let records = try ending()
        #expect(records.map { $0["event"]?.stringValue } == ["killed", "exited"])
        #expect(records.map { $0["reason"]?.stringValue } == [reason, reason], "\(records.map(\.jsonText))")
    }
}
