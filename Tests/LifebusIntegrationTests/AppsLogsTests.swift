import Glibc
import Testing

/// `lifebus logs ID --follow`: prints what the app already wrote, then what it writes after the command started
/// following, and keeps going until interrupted (SIGINT ends it, as the command's help says).
@Suite struct AppsLogsTests {
    @Test func followPrintsWhatTheAppWritesLaterAndStopsOnSIGINT() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Chatty"
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
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

    @Test func followKeepsPrintingAcrossARelaunchThatRotatesTheLog() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Verbose"
        let marker = BrokerFixture.uniqueSocketPath("verbose") + ".ran"
        defer { unlink(marker) }
        // The first run writes 9 MB (over the 8 MiB bound of a log), so the relaunch rotates the log: it is copied
        // to `.log.1` and emptied before the second run writes to it.
        let first = "[ -e \(marker) ] || { yes \"$(printf %0999d 0)\" | head -c 9000000; touch \(marker); }"
        let app = "exec \(ChildProcess.productsFolder)/lifebus subscribe --id \(id)"
        let script = "echo \"run $$$$ starts\"; \(first); \(app)"  // `$$` in a manifest is one `$` (§16.1)
        let manifest = AppsSupervisedTests.manifest(
            id, in: broker.ownFolder, executable: "/bin/sh", arguments: ["-c", script])
        #expect(try broker.cli(["install", manifest]).status == 0)
        let log = broker.logPath(id)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        func pids() throws -> [Int64] {
            try AppsSupervisedTests.processRecords(broker, id).filter { $0["event"]?.stringValue == "started" }
                .compactMap { $0["pid"]?.int64Value }
        }

        let follower = try ChildProcess("lifebus", ["logs", id, "--follow", "--socket", broker.socketPath])
        func readUntil(_ text: String) -> Bool {
            while let line = follower.stdout.readLine() {
                if line.contains(text) { return true }
            }
            return false
        }
        #expect(readUntil("run \(try pids()[0]) starts"), "the first run's lines")
        #expect(readUntil("didFinishLaunching"))

        #expect(try broker.cli(["fire", "terminate", id]).status == 0)
        #expect(try AppsSupervisedTests.eventually {
            try AppsSupervisedTests.processRecords(broker, id).contains { $0["event"]?.stringValue == "exited" }
        })
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        #expect(fileSize(log + ".1") > 9_000_000, "the relaunch rotated the log")
        let second = try pids().last ?? 0
        #expect(readUntil("run \(second) starts"), "the second run's lines, written to the emptied log")
        #expect(readUntil("didFinishLaunching"))
        #expect(follower.isAlive, "still following")
        follower.signal(SIGINT)
        #expect(follower.waitForExit(timeout: .seconds(10)) == 128 + SIGINT)
        try SupervisionCheck.run(broker)
    }

    @Test func followWaitsForTheLogOfAnAppNotLaunchedYet() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Later"
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
        let follower = try ChildProcess("lifebus", ["logs", id, "--follow", "--socket", broker.socketPath])
        // Launched only once the follower found no log and sleeps between polls: one of its threads is in
        // clock_nanosleep (x86-64 syscall 230).
        func polling() -> Bool {
            fileNames(in: "/proc/\(follower.pid)/task", endingWith: "").contains { task in
                let call = (try? readBytes("/proc/\(follower.pid)/task/\(task)/syscall")) ?? []
                return String(decoding: call, as: UTF8.self).hasPrefix("230 ")
            }
        }
        #expect(AppsSupervisedTests.eventually { polling() || !follower.isAlive })
        #expect(follower.isAlive, "following a log not written yet: \(follower.stderr.readAll(timeout: .seconds(1)))")
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        var printed = false
        while !printed, let line = follower.stdout.readLine() {
            printed = line.contains("didFinishLaunching")
        }
        #expect(printed, "printed once the app wrote it: \(follower.stderr.readAll(timeout: .seconds(1)))")
        follower.signal(SIGINT)
        #expect(follower.waitForExit(timeout: .seconds(10)) == 128 + SIGINT)
        try SupervisionCheck.run(broker)
    }
}
