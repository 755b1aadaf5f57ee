import Glibc
import LifebusProtocol
import Testing

/// `lifebus clock` and `lifebus clock advance` against a real `lifebusd --clock manual` and real app processes:
/// virtual time moves only when told, and a hung app is killed by the watchdog at exactly its budget.
@Suite struct ClockCLITests {
    @Test func underTheRealClockAdvanceIsRefusedByName() throws {
        let broker = try BrokerFixture()
        let clock = try broker.cli(["clock", "--json"])
        #expect(clock.status == 0, "\(clock.err)")
        #expect(parsed(clock.out)?["clock"]?.stringValue == "real")
        let advanced = try broker.cli(["clock", "advance", "5s", "--json"])
        #expect(advanced.status == 4)
        #expect(advanced.err.contains("lifebus.ClockNotManual"), "\(advanced.err)")
    }

    @Test func aHungAppIsKilledWhenVirtualTimePassesItsBudget() throws {
        let broker = try BrokerFixture(arguments: ["--clock", "manual", "--advance-settle", "300ms"])
        let app = try broker.subscribe("com.example.Hung", ["--delay", "willResignActive=1h"])
        #expect(try broker.reached("com.example.Hung", "active"))
        #expect(try broker.cli(["clock"]).out == "0.000 ms (manual clock)\n")

        #expect(try broker.cli(["fire", "home", "--no-wait"]).status == 0)
        let early = try broker.cli(["clock", "advance", "9999ms", "--json"])
        #expect(early.status == 0, "\(early.err)")
        let waited = parsed(early.out)
        #expect(waited?["nowMs"]?.doubleValue == 9999)
        #expect(waited?["outstanding"]?.arrayValue?.first?["callback"]?.stringValue == "willResignActive")
        #expect(app.isAlive, "still within its budget")

        let due = try broker.cli(["clock", "advance", "1ms"])
        #expect(due.status == 0, "\(due.err)")
        #expect(due.out == "10000.000 ms (manual clock)\n")
        #expect(app.waitForExit() == 128 + SIGKILL, "the watchdog killed it")
        let last = try broker.transitions(of: "com.example.Hung").last
        #expect(last.map(summary) == "willResignActive active->notRunning watchdog")
        let status = try broker.status()?["apps"]?.arrayValue?.first
        #expect(status?["sinceMs"]?.doubleValue == 10_000, "killed at exactly its budget, in virtual time")
    }

    /// 36,500 one-day advances reach the manual clock's maximum, 100 years; `lifebus clock advance 1ms` past it is
    /// refused naming `byMs` (it used to go on until `nowMs` went negative), and what is journaled there after has
    /// its true, positive time.
    @Test func anAdvancePastOneHundredYearsIsRefusedNamingByMs() throws {
        let broker = try BrokerFixture(arguments: ["--clock", "manual", "--log-level", "error"])
        let app = try broker.subscribe("com.example.Centenarian")
        #expect(try broker.reached("com.example.Centenarian", "active"))
        let controller = try RawPeer.controller(broker)
        for day in 0..<36_500 {
            guard controller.call("advance", #"{"byMs":86400000}"#)?["result"] != nil else {
                Issue.record("the advance of day \(day) was not answered with a result")
                return
            }
        }
        let refused = try broker.cli(["clock", "advance", "1ms"])
        #expect(refused.status != 0)
        #expect(refused.err.contains("byMs") && refused.err.contains("3153600000000"), "\(refused.err)")
        let clock = try broker.cli(["clock", "--json"])
        #expect(parsed(clock.out)?["nowMs"]?.doubleValue == 3_153_600_000_000, "\(clock.out)")
        #expect(try broker.cli(["fire", "home"]).status == 0)
        let last = try broker.transitions(of: "com.example.Centenarian").last
        #expect(last?["sentMs"]?.doubleValue == 3_153_600_000_000, "\(last?.jsonText ?? "no transition")")
        for entry in try broker.history() {
            for key in ["firedMs", "sentMs", "answeredMs", "atMs"] {
                #expect((entry[key]?.doubleValue ?? 0) >= 0, "\(entry.jsonText)")
            }
        }
        #expect(app.isAlive)
    }

    @Test func anAppThatAnswersLetsTheAdvanceReturnWithTheNewTime() throws {
        let broker = try BrokerFixture(arguments: ["--clock", "manual"])
        let app = try broker.subscribe("com.example.Quick")
        #expect(try broker.reached("com.example.Quick", "active"))
        #expect(try broker.cli(["fire", "home"]).status == 0)
        let advanced = try broker.cli(["clock", "advance", "1m", "--json"])
        #expect(advanced.status == 0, "\(advanced.err)")
        #expect(parsed(advanced.out)?["nowMs"]?.doubleValue == 60_000)
        #expect(parsed(advanced.out)?["outstanding"]?.arrayValue?.isEmpty == true)
        #expect(try broker.reached("com.example.Quick", "suspended", timeout: "1s"))
        #expect(app.isAlive)
    }
}
