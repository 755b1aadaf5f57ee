import Glibc
import Testing

/// Issue 7 item 10, "one that forks a grandchild and exits", through the broker: the installed app is a shell that
/// starts a grandchild (`sleep`) in its process group and becomes `lifebus subscribe`; when the app exits after
/// `willTerminate`, the broker reaps it and kills what is left of its group, so the grandchild dies with it.
@Suite struct AppsProcessGroupTests {
    @Test func aGrandchildTheAppForkedDiesWithItsGroupWhenTheAppExits() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Forker"
        let pidFile = BrokerFixture.uniqueSocketPath("grandchild") + ".pid"
        defer { unlink(pidFile) }
        let subscribe = "exec \(ChildProcess.productsFolder)/lifebus subscribe --id \(id)"
        let script = "sleep 1000 & echo $! > \(pidFile); \(subscribe)"
        let manifest = AppsSupervisedTests.manifest(
            id, in: broker.ownFolder, executable: "/bin/sh", arguments: ["-c", script])
        #expect(try broker.cli(["install", manifest]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let app = Int32(try AppsSupervisedTests.processRecords(broker, id).first?["pid"]?.int64Value ?? 0)
        var grandchild: Int32 = 0
        #expect(AppsSupervisedTests.eventually {
            let text = String(decoding: (try? readBytes(pidFile)) ?? [], as: UTF8.self)
            grandchild = text.split(separator: "\n").first.flatMap { Int32($0) } ?? 0
            return grandchild > 0
        })
        #expect(getpgid(grandchild) == app, "the grandchild is in the app's group")
        #expect(SupervisionCheck.children(of: broker.process.pid).contains(app), "the broker's child")

        #expect(try broker.cli(["fire", "terminate", id]).status == 0)
        #expect(try AppsSupervisedTests.eventually {
            try AppsSupervisedTests.processRecords(broker, id).contains { $0["event"]?.stringValue == "exited" }
        })
        let exited = try AppsSupervisedTests.processRecords(broker, id).last
        #expect(exited?["status"]?.int64Value == 0, "the app exited by itself: \(exited?.jsonText ?? "")")
        #expect(AppsSupervisedTests.eventually { SupervisionCheck.liveMembers(ofGroup: app).isEmpty },
                "the grandchild died with the group")
        #expect(SupervisionCheck.processState(grandchild) ?? "Z" == "Z")
        try SupervisionCheck.run(broker)
    }
}
