import Glibc
import LifebusIO
import LifebusProtocol
import Testing

/// A CLI command that waits longer than 2 s says on stderr what it waits for and how long, and a wait that runs
/// out is a timeout (exit 1, `lifebus.TimedOut`), not a refusal. Budgets leave a loaded machine room (an 8 s launch
/// budget, the notice due at 2 s); every notice is polled for, with a deadline, never slept for.
@Suite struct WaitNoticeTests {
    static let launchBudget = ["--budget", "didFinishLaunching=8s"]

    /// Reads `child`'s stderr until a line contains `text`, for at most `seconds`; returns the line and how long it
    /// took to come.
    static func stderrLine(_ child: ChildProcess, containing text: String, within seconds: Double = 7)
        -> (line: String?, seconds: Double)
    {
        let start = Self.now()
        while Self.now() - start < seconds {
            let left = seconds - (Self.now() - start)
            guard let line = child.stderr.readLine(timeout: .milliseconds(Int64(left * 1000) + 1)) else { break }
            if line.contains(text) { return (line, Self.now() - start) }
        }
        return (nil, Self.now() - start)
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test func fireLaunchOfAProgramThatNeverConnectsSaysSoAndTimesOut() throws {
        let broker = try BrokerFixture(arguments: Self.launchBudget)
        let id = "com.example.Mute"
        let manifest = AppsSupervisedTests.manifest(
            id, in: broker.ownFolder, executable: "/bin/sleep", arguments: ["1000"])
        #expect(try broker.cli(["install", manifest]).status == 0)

        let fire = try ChildProcess("lifebus", ["fire", "launch", id, "--socket", broker.socketPath])
        let notice = Self.stderrLine(fire, containing: "waiting for \(id) to connect")
        #expect(notice.line == "lifebus: waiting for \(id) to connect (launch budget 8s); a program that does not "
            + "speak the protocol needs `lifebus subscribe -- PROGRAM` — see `lifebus logs \(id)`")
        #expect(notice.seconds < 7, "said after ~2 s, before the 8 s budget ran out")
        let rest = fire.stderr.readAll(timeout: .seconds(10))
        #expect(fire.wait() == 1, "a timeout, not a refusal (4): \(rest)")
        #expect(rest.contains("timed out: launch \(id): \(id) did not connect within its launch budget (8s)"),
                "\(rest)")
        #expect(!rest.contains("refused"), "\(rest)")

        let json = try broker.cli(["fire", "launch", id, "--json"])
        #expect(json.status == 1)
        #expect(json.err.contains(#"{"waiting":{"message":"waiting for com.example.Mute to connect"#), "\(json.err)")
        #expect(json.err.contains(#""name":"lifebus.TimedOut""#) && json.err.contains(#""reason":"launchTimedOut""#),
                "\(json.err)")
        try SupervisionCheck.run(broker)
    }

    @Test func callEndReturningToAKilledAppThatIsNotInstalledSaysSoAndTimesOut() throws {
        let broker = try BrokerFixture(arguments: Self.launchBudget + ["--profile", "ios3"])
        let id = "com.example.Returning"
        let app = try broker.subscribe(id)
        #expect(app.stderr.readLine()?.contains("connected") == true)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.cli(["fire", "call"]).status == 0)
        #expect(try broker.cli(["fire", "call", "--answer"]).status == 0)
        app.signal(SIGKILL)
        app.wait()

        let end = try ChildProcess("lifebus", ["fire", "call", "--end", "--socket", broker.socketPath])
        let notice = Self.stderrLine(end, containing: "waiting for \(id) to connect (launch budget 8s)")
        #expect(notice.line != nil && notice.seconds < 7, "\(notice)")
        let rest = end.stderr.readAll(timeout: .seconds(10))
        #expect(end.wait() == 1, "\(rest)")
        #expect(rest.contains("timed out: call --end: \(id) did not connect within its launch budget (8s)"), "\(rest)")
    }

    @Test func waitForAnAppThatNeverConnectedSaysSoWhileWaitingAndAtTheEnd() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Absent"
        let wait = try ChildProcess("lifebus", ["wait", id, "active", "--timeout", "8s", "--socket", broker.socketPath])
        let notice = Self.stderrLine(wait, containing: "waiting up to 8s for \(id) to be active")
        #expect(notice.line == "lifebus: waiting up to 8s for \(id) to be active; it has not connected to this broker "
            + "— a program that does not speak the protocol needs `lifebus subscribe -- PROGRAM` — see "
            + "`lifebus logs \(id)`", "\(notice)")
        #expect(notice.seconds < 7)
        let rest = wait.stderr.readAll(timeout: .seconds(10))
        let out = wait.stdout.readAll(timeout: .seconds(1))
        #expect(wait.wait() == 1)
        #expect(rest.contains("timed out after 8000.000 ms waiting for \(id) to be active; it is notRunning; \(id) has "
            + "never connected"), "\(rest)")
        #expect(out.contains("has never connected"), "\(out)")

        let json = try broker.cli(["wait", id, "active", "--timeout", "100ms", "--json"])
        #expect(json.status == 1)
        #expect(json.err.contains(#""name":"lifebus.TimedOut""#) && json.err.contains(#""connected":false"#),
                "\(json.err)")
    }

    @Test func aWaitForAConnectedAppSaysWhereItIs() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Here"
        let app = try broker.subscribe(id)
        #expect(app.stderr.readLine()?.contains("connected") == true)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        let wait = try ChildProcess("lifebus", ["wait", id, "suspended", "--timeout", "6s",
                                                "--socket", broker.socketPath])
        let notice = Self.stderrLine(wait, containing: "waiting up to 6s")
        #expect(notice.line == "lifebus: waiting up to 6s for \(id) to be suspended; it is active", "\(notice)")
        #expect(wait.wait() == 1)
        let rest = wait.stderr.readAll(timeout: .seconds(2))
        #expect(!rest.contains("never connected"), "\(rest)")
        app.signal(SIGTERM)
        app.wait()
    }

    @Test func subscribeWhoseProgramEndsWithNoBrokerExits3WithTheReason() throws {
        let socket = BrokerFixture.uniqueSocketPath("none")
        let run = try runCLI(["subscribe", "--id", "com.example.A", "--socket", socket, "--", "/bin/sleep", "1"])
        #expect(run.status == 3, "never 0 without a broker: \(run.err)")
        #expect(run.err.contains("lifebus subscribe: no broker at \(socket): "), "\(run.err)")
        #expect(run.err.contains("before subscribe ever connected"), "\(run.err)")
    }

    @Test func fireWhoseCallbackTakesLongSaysItWaitsForTheTransitions() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Slow"
        let app = try broker.subscribe(id, ["--delay", "didFinishLaunching=6s"])
        #expect(app.stderr.readLine()?.contains("connected") == true)
        let fire = try ChildProcess("lifebus", ["fire", "launch", id, "--socket", broker.socketPath])
        let notice = Self.stderrLine(fire, containing: "waiting for")
        #expect(notice.line == "lifebus: waiting for the transitions of launch \(id) to complete (each callback "
            + "within its budget; --no-wait returns at once)", "\(notice)")
        #expect(fire.wait() == 0)
        app.signal(SIGTERM)
        app.wait()
    }

    @Test func expectWithinSaysWhatItWaitsFor() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Quiet"
        let expect = try ChildProcess("lifebus", ["expect", id, "--mark", "saved", "--within", "6s",
                                                  "--socket", broker.socketPath])
        let notice = Self.stderrLine(expect, containing: "waiting up to 6s")
        #expect(notice.line == "lifebus: waiting up to 6s for \(id): mark saved: expected present, recorded absent "
            + "(no mark)", "\(notice)")
        #expect(expect.wait() == 1)
    }

    @Test func aCommandWaitingForABrokerToStartSaysSo() throws {
        let socket = BrokerFixture.uniqueSocketPath("later")
        let ping = try ChildProcess("lifebus", ["ping", "--wait", "6s", "--socket", socket])
        let notice = Self.stderrLine(ping, containing: "waiting for a broker")
        #expect(notice.line == "lifebus: waiting for a broker at \(socket) to accept the connection (at most 6s)",
                "\(notice)")
        #expect(ping.wait() == 3)
    }

    @Test func aScenarioStepWaitingForTheBrokerSaysSo() throws {
        let broker = try BrokerFixture(arguments: Self.launchBudget)
        let folder = makeTemporaryFolder("lifebus-notice")
        let file = folder + "/nobody.yaml"
        let text = "name: nobody\nsteps:\n  - launch: com.example.Nobody\n"
        let written = fopen(file, "w").map { handle in
            defer { fclose(handle) }
            return fputs(text, handle) >= 0
        }
        #expect(written == true)
        defer { FolderEntries.removeTree(folder) }
        let run = try ChildProcess("lifebus", ["run", "--socket", broker.socketPath, "--profile", "ios7", file])
        let notice = Self.stderrLine(run, containing: "waiting for")
        #expect(notice.line == "lifebus run: waiting for the broker's answer to fire (at most 10s)", "\(notice)")
        #expect(notice.seconds < 7)
        let out = run.stdout.readAll(timeout: .seconds(10))
        #expect(run.wait() == 1)
        #expect(out.contains("timed out: launch com.example.Nobody: com.example.Nobody did not connect within its "
            + "launch budget (8s)"), "a timeout, said as one: \(out)")
    }
}
