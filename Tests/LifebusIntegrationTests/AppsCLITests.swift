import Glibc
import LifebusJSON
import Testing

/// The CLI's waiting and watching commands against a live app: `lifebus wait` and `lifebus watch --json`.
@Suite struct AppsCLITests {
    @Test func waitExitsZeroWhenTheAppReachesTheState() throws {
        let broker = try BrokerFixture()
        // Waiting starts before the app exists: an unknown app is waited for.
        let waiting = try ChildProcess("lifebus", ["wait", "com.example.Late", "active", "--socket", broker.socketPath])
        let app = try broker.subscribe("com.example.Late")
        let out = waiting.stdout.readAll()
        #expect(waiting.wait() == 0)
        #expect(out.contains("com.example.Late is active"), "\(out)")
        #expect(app.isAlive)
    }

    @Test func waitExitsOneOnTimeoutPrintingTheCurrentStateAndLastTransitions() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Busy")
        #expect(try broker.reached("com.example.Busy", "active"))
        let result = try broker.cli(["wait", "com.example.Busy", "suspended", "--timeout", "200ms"])
        #expect(result.status == 1)
        #expect(result.out.contains("it is active"), "\(result.out)")
        #expect(result.out.contains("didBecomeActive"), "the last transitions are listed: \(result.out)")

        let json = try broker.cli(["wait", "com.example.Busy", "suspended", "--timeout", "100ms", "--json"])
        #expect(json.status == 1)
        #expect(parsed(json.out)?["state"]?.stringValue == "active")
        #expect(app.isAlive)
    }

    @Test func watchPrintsATransitionLineWhenAnEventHappensAndExitsZeroOnInterrupt() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Watched")
        #expect(try broker.reached("com.example.Watched", "active"))
        let watch = try ChildProcess("lifebus", ["watch", "--json", "--socket", broker.socketPath])

        // The watcher registers with the broker at some point after starting: fire until it reports one.
        var seen: JSONValue?
        for _ in 0..<50 where seen == nil {
            #expect(try broker.cli(["fire", "memory-warning"]).status == 0)
            seen = watch.readJSONLine(timeout: .milliseconds(200)) { _ in true }
        }
        #expect(seen?["type"]?.stringValue == "transition")
        #expect(seen?["app"]?.stringValue == "com.example.Watched")
        #expect(seen?["callback"]?.stringValue == "didReceiveMemoryWarning")
        #expect(seen?["outcome"]?.stringValue == "ok")

        #expect(try broker.cli(["fire", "home"]).status == 0)
        let home = watch.readJSONLine { $0["callback"]?.stringValue == "didEnterBackground" }
        #expect(home?["to"]?.stringValue == "background")

        watch.signal(SIGINT)
        #expect(watch.wait() == 0)
        #expect(app.isAlive)
    }

    @Test func waitTakesSeveralStatesAndAnswersWithTheOneReached() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Either")
        #expect(try broker.reached("com.example.Either", "active"))
        #expect(try broker.cli(["fire", "home"]).status == 0)
        let result = try broker.cli(["wait", "com.example.Either", "background|suspended", "--json"])
        #expect(result.status == 0, "\(result.err)")
        #expect(parsed(result.out)?["state"]?.stringValue == "suspended", "the suspension is a state change too")
        #expect(app.isAlive)
    }

    @Test func anEventThatMovesNoAppIsCarriedOutAndFireWithoutAnEventIsAUsageError() throws {
        let broker = try BrokerFixture()
        let call = try broker.cli(["fire", "call"])
        #expect(call.status == 0, "\(call.err)")
        #expect(call.out.contains("no app moved"), "\(call.out)")
        let json = try broker.cli(["fire", "call", "--end", "--json"])
        #expect(parsed(json.out)?["noApp"]?.boolValue == true, "\(json.out)")
        let refused = try broker.cli(["fire", "call", "--end"])
        #expect(refused.status == 4, "no call to end: refused")
        #expect(try broker.cli(["fire"]).status == 2)
    }

    @Test func resetUnlocksAndBringsTheFrontAppBackWithoutRestartingTheBroker() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Reset")
        #expect(try broker.reached("com.example.Reset", "active"))
        #expect(try broker.cli(["fire", "sleep"]).status == 0)
        #expect(try broker.cli(["fire", "call"]).status == 0)
        let reset = try broker.cli(["reset", "--json"])
        #expect(reset.status == 0, "\(reset.err)")
        let callbacks = (parsed(reset.out)?["transitions"]?.arrayValue ?? []).map(summary)
        #expect(callbacks == ["willEnterForeground suspended->inactive ok", "didBecomeActive inactive->active ok"])
        let status = try broker.status()
        #expect(status?["locked"]?.boolValue == false)
        #expect(status?["call"]?.stringValue == "none")
        #expect(app.isAlive)
    }
}
