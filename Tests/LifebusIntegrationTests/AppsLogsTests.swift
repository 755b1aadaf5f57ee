import Glibc
import Testing

/// `lifebus logs ID --follow`: prints what the app already wrote, then what it writes after the command started
/// following, and keeps going until interrupted (SIGINT ends it, as the command's help says).
@Suite struct AppsLogsTests {
    @Test func followPrintsWhatTheAppWritesLaterAndStopsOnSIGINT() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Chatty"
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id)]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))

        let follower = try ChildProcess("lifebus", ["logs", id, "--follow", "--socket", broker.socketPath])
        func readUntil(_ text: String) -> Bool {
            while let line = follower.stdout.readLine() {
                if line.contains(text) { return true }
            }
            return false
        }
        #expect(readUntil("didFinishLaunching"), "what the app wrote before")
        // Written by the app only now, after the follower reached the end of the file.
        #expect(try broker.cli(["fire", "memory-warning"]).status == 0)
        #expect(readUntil("didReceiveMemoryWarning"), "what the app wrote after following started")
        #expect(follower.isAlive, "still following")

        follower.signal(SIGINT)
        #expect(follower.waitForExit(timeout: .seconds(10)) == 128 + SIGINT, "interrupted, it stops")
        #expect(try broker.cli(["status"]).status == 0, "the broker goes on")
        try SupervisionCheck.run(broker)
    }
}
