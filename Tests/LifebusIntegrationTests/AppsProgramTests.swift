import Glibc
import LifebusProtocol
import Testing

/// `lifebus subscribe -- PROGRAM`: a program in any language as the app's process — killed with the app, its exit
/// the app's end — and the ways subscribe tells a shell what happened (failed hooks, giving up, exit statuses).
@Suite struct AppsProgramTests {
    static let lifebus = "\(ChildProcess.productsFolder)/lifebus"

    @Test func aWatchdogKillReachesTheProgramAndTheRunningHook() throws {
        let broker = try BrokerFixture(arguments: ["--budget", "didEnterBackground=300ms"])
        let app = try broker.subscribe("com.example.Stuck", [
            "--on", #"didEnterBackground=echo "{\"hookPid\":$$}" >&2; exec sleep 60"#,
            "--", "/bin/sh", "-c", #"echo "{\"programPid\":$$}"; exec sleep 60"#,
        ])
        let program = try #require(app.readJSONLine { $0["programPid"] != nil }?["programPid"]?.int64Value)
        #expect(try broker.reached("com.example.Stuck", "active"))

        let fired = try broker.cli(["fire", "home", "--fail-on", "watchdog"])
        #expect(fired.status == 1, "fire --fail-on watchdog fails: \(fired.out) \(fired.err)")
        let hook = try #require(app.stderr.readJSONLine { $0["hookPid"] != nil }?["hookPid"]?.int64Value)
        #expect(app.waitForExit() == 128 + SIGKILL, "the broker killed subscribe")
        #expect(waitUntilGone(Int32(program)), "the program died with the app")
        #expect(waitUntilGone(Int32(hook)), "the running hook died with the app")
        let last = try broker.transitions(of: "com.example.Stuck").last
        #expect(last.map(summary) == "didEnterBackground inactive->notRunning watchdog")
    }

    @Test func theProgramDiesWithSubscribeEvenWhenOnlySubscribeIsKilled() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Orphan", [
            "--", "/bin/sh", "-c", #"echo "{\"programPid\":$$}"; exec sleep 60"#,
        ])
        let program = try #require(app.readJSONLine { $0["programPid"] != nil }?["programPid"]?.int64Value)
        app.signal(SIGKILL)  // subscribe alone, not its group: PR_SET_PDEATHSIG is the backup
        #expect(app.wait() == 128 + SIGKILL)
        #expect(waitUntilGone(Int32(program)), "the program did not outlive subscribe")
    }

    @Test func theProgramsExitBeforeWillTerminateIsACrashAndSubscribesExitStatus() throws {
        let broker = try BrokerFixture()
        let script = """
            \(Self.lifebus) wait "$LIFEBUS_APP_ID" active >/dev/null && \
            \(Self.lifebus) mark ready --data '{"n":1}' && exit 7
            """
        let app = try broker.subscribe("com.example.Crashy", ["--", "/bin/sh", "-c", script])
        #expect(app.waitForExit() == 7, "subscribe exits with the program's status")
        #expect(try broker.reached("com.example.Crashy", "notRunning"))
        #expect(try broker.transitions(of: "com.example.Crashy").last.map(summary) == "none active->notRunning crashed")
        let marks = try broker.marks(of: "com.example.Crashy")
        #expect(marks.map { $0["name"]?.stringValue } == ["ready", "program-exited"])
        #expect(marks.first?["data"]?["n"]?.int64Value == 1, "the program's mark reached the broker as the app's")
        #expect(marks.last?["data"]?["status"]?.stringValue == "exit 7")
    }

    @Test func expectWithinWaitsForAMarkTheProgramMakesOnItsOwnTime() throws {
        let broker = try BrokerFixture()
        let script = """
            \(Self.lifebus) wait "$LIFEBUS_APP_ID" active >/dev/null && sleep 0.3 && \
            \(Self.lifebus) mark later --data '{"k":"v"}' && exec sleep 60
            """
        let app = try broker.subscribe("com.example.Later", ["--", "/bin/sh", "-c", script])
        let found = try broker.cli([
            "expect", "com.example.Later", "--mark", "later", "--data-has", "k=v", "--within", "10s",
        ])
        #expect(found.status == 0, "\(found.out)")
        let missing = try broker.cli(["expect", "com.example.Later", "--mark", "never", "--within", "200ms"])
        #expect(missing.status == 1)
        #expect(missing.out.contains("recorded: absent (marks later)"), "\(missing.out)")
        #expect(app.isAlive)
    }

    @Test func afterWillTerminateTheProgramIsEndedAndSubscribeExitsZero() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Done", [
            "--", "/bin/sh", "-c", #"echo "{\"programPid\":$$}"; exec sleep 60"#,
        ])
        let program = try #require(app.readJSONLine { $0["programPid"] != nil }?["programPid"]?.int64Value)
        #expect(try broker.reached("com.example.Done", "active"))
        #expect(try broker.cli(["fire", "terminate", "--app", "com.example.Done", "--expect", "ok"]).status == 0)
        #expect(app.waitForExit() == 0)
        #expect(waitUntilGone(Int32(program)))
        let last = try broker.transitions(of: "com.example.Done").last
        #expect(last.map(summary) == "willTerminate active->notRunning ok")
    }

    @Test func aProgramThatIgnoresSIGTERMIsKilledAfterTheGraceAndReapedBySubscribe() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Stubborn", [
            "--", "/bin/sh", "-c", #"trap '' TERM; echo "{\"programPid\":$$}"; exec sleep 60"#,
        ])
        let program = try #require(app.readJSONLine { $0["programPid"] != nil }?["programPid"]?.int64Value)
        #expect(try broker.reached("com.example.Stubborn", "active"))
        #expect(try broker.cli(["fire", "terminate", "--app", "com.example.Stubborn", "--expect", "ok"]).status == 0)
        #expect(app.waitForExit() == 0, "willTerminate was answered: subscribe exits 0 whatever the program did")
        let err = app.stderr.readAll(timeout: .seconds(2))
        // The status comes from reaping the program: a subscribe that left it to init could not say it.
        #expect(err.contains("did not exit within 2s of SIGTERM after willTerminate; killed: signal 9"), "\(err)")
        #expect(waitUntilGone(Int32(program)))
    }

    @Test func aHookThatExitsNonZeroIsAFailedCallbackInTheRecordAndTheTable() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Hooked", ["--on", "willResignActive=exit 3"])
        #expect(try broker.reached("com.example.Hooked", "active"))
        let fired = try broker.cli(["fire", "call", "--expect", "ok"])
        #expect(fired.status == 1, "--expect ok fails on a failed hook: \(fired.out)")
        #expect(fired.out.contains("failed"), "the table shows it: \(fired.out)")
        let record = try broker.transitions(of: "com.example.Hooked").last
        #expect(record?["handlerFailed"]?.boolValue == true)
        #expect(record?["outcome"]?.stringValue == "ok", "in time: the outcome is still the timing's")
        let expect = try broker.cli(["expect", "com.example.Hooked", "--no-outcome", "failed"])
        #expect(expect.status == 1, "\(expect.out)")
        #expect(expect.out.contains("recorded: failed"), "\(expect.out)")
        #expect(app.stderr.readLine()?.isEmpty == false)
    }

    @Test func subscribeWithoutABrokerSaysSoAndGivesUpWithExit3() throws {
        let app = try ChildProcess("lifebus", [
            "subscribe", "--id", "com.example.Alone", "--socket", BrokerFixture.uniqueSocketPath("none"),
            "--connect-timeout", "300ms",
        ])
        #expect(app.waitForExit(timeout: .seconds(10)) == 3)
        let err = app.stderr.readAll(timeout: .seconds(2))
        #expect(err.contains("start it with `lifebusd`"), "\(err)")
        #expect(err.contains("gave up after 300ms"), "\(err)")
    }

    @Test func subscribeWithAnIDInUseSaysSoAndGivesUpWithExit3() throws {
        let broker = try BrokerFixture()
        let first = try broker.subscribe("com.example.Twice")
        #expect(try broker.reached("com.example.Twice", "active"))
        let second = try broker.subscribe("com.example.Twice", ["--connect-timeout", "300ms"])
        #expect(second.waitForExit(timeout: .seconds(10)) == 3)
        let err = second.stderr.readAll(timeout: .seconds(2))
        #expect(err.contains("refused hello"), "\(err)")
        #expect(first.isAlive)
    }

    @Test func anObservingWatchdogJournalsAnOverrunLateAndKillsNobody() throws {
        let broker = try BrokerFixture(arguments: ["--watchdog", "observe", "--budget", "willResignActive=50ms"])
        let app = try broker.subscribe("com.example.Slowish", ["--delay", "willResignActive=300ms"])
        #expect(try broker.reached("com.example.Slowish", "active"))
        let fired = try broker.cli(["fire", "call", "--json"])
        let record = parsed(fired.out)?["transitions"]?.arrayValue?.first
        #expect(record.map(summary) == "willResignActive active->inactive late", "\(fired.out)")
        #expect(record?["budgetMs"]?.doubleValue == 50)
        #expect(app.isAlive)
    }
}

/// Waits (checking every few milliseconds, up to `timeout`) until no live process has `pid`: gone, or a zombie.
func waitUntilGone(_ pid: Int32, timeout: Duration = .seconds(5)) -> Bool {
    let deadline = Deadline(after: timeout)
    repeat {
        if kill(pid, 0) != 0 { return true }
        if let stat = fopen("/proc/\(pid)/stat", "r") {
            var buffer = [CChar](repeating: 0, count: 512)
            let line = fgets(&buffer, 512, stat).map { _ in
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            fclose(stat)
            if let line, let close = line.lastIndex(of: ")"), line[line.index(close, offsetBy: 2)] == "Z" {
                return true
            }
        }
        usleep(5_000)
    } while !deadline.hasPassed
    return false
}
