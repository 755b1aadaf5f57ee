import Glibc
import LifebusJSON
import Testing

/// `lifebus subscribe` in the background life (`Protocol/README.md` §10.2): its hooks read `$LIFEBUS_PROTECTED_DATA`
/// and answer a silent push (exit 0: `newData`), and a `--task` identifier is registered at launch and completed by
/// the `performBackgroundTask` hook's exit.
@Suite struct SubscribeBackgroundTests {
    static let id = "com.example.Hooked"

    @Test func hooksSeeProtectedDataAndATaskIsCompletedByItsHooksExit() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17", "--clock", "manual"])
        let seen = broker.socketPath + ".seen"
        defer { unlink(seen) }
        let app = try broker.subscribe(Self.id, [
            "--task", "com.example.Hooked.refresh",
            "--on", "didReceiveRemoteNotification=echo $LIFEBUS_PROTECTED_DATA >> \(seen)",
            "--on", "performBackgroundTask=exit 3",
        ])
        #expect(try broker.reached(Self.id, "active"))
        #expect(try broker.cli(["fire", "push", Self.id]).status == 0)
        #expect(try broker.cli(["fire", "sleep"]).status == 0)
        #expect(try broker.cli(["clock", "advance", "15s"]).status == 0)
        #expect(try broker.cli(["fire", "push", Self.id]).status == 0)
        #expect(AppsSupervisedTests.eventually { (try? Self.lines(seen))?.count == 2 })
        #expect(try Self.lines(seen) == ["available", "unavailable"])
        let pushes = try broker.history().filter {
            $0["type"]?.stringValue == "push" && $0["event"]?.stringValue == "answered"
        }
        #expect(pushes.compactMap { $0["result"]?.stringValue } == ["newData", "newData"])

        #expect(try broker.cli(["fire", "bgtask", Self.id, "com.example.Hooked.refresh"]).status == 0)
        #expect(try AppsSupervisedTests.eventually {
            try broker.history().contains {
                $0["type"]?.stringValue == "task" && $0["event"]?.stringValue == "completed"
            }
        })
        let completed = try broker.history().last { $0["type"]?.stringValue == "task" }
        #expect(completed?["success"]?.boolValue == false, "the hook exited 3")
        _ = try broker.cli(["fire", "wake"])
        _ = try broker.cli(["fire", "terminate", Self.id])
        _ = app.waitForExit()
    }

    static func lines(_ path: String) throws -> [String] {
        String(decoding: try readBytes(path), as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
