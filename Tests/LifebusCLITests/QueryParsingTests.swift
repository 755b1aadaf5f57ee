import ArgumentParser
import LifebusProtocol
import Testing

@testable import LifebusCLI

/// `status`, `wait`, `history` and `watch` parse their arguments without a broker, and refuse bad ones with exit 2.
@Suite struct QueryParsingTests {
    @Test func statusTakesAnOptionalApp() throws {
        let all = try #require(try LifebusCommand.parseAsRoot(["status"]) as? LifebusCommand.Status)
        #expect(all.app == nil)
        let one = try #require(
            try LifebusCommand.parseAsRoot(["status", "com.example.A", "--json"]) as? LifebusCommand.Status
        )
        #expect(one.app == "com.example.A")
        #expect(one.global.json)
    }

    @Test func waitParsesAppStateAndTimeout() throws {
        let wait = try #require(
            try LifebusCommand.parseAsRoot(["wait", "com.example.A", "background", "--timeout", "250ms"])
                as? LifebusCommand.Wait
        )
        #expect(wait.app == "com.example.A")
        #expect(wait.states.lifecycle == [.background])
        #expect(wait.timeout.duration == .milliseconds(250))
    }

    @Test func waitDefaultsToThirtySeconds() throws {
        let wait = try #require(
            try LifebusCommand.parseAsRoot(["wait", "com.example.A", "notRunning"]) as? LifebusCommand.Wait
        )
        #expect(wait.states.lifecycle == [.notRunning])
        #expect(wait.timeout.duration == .seconds(30))
    }

    @Test func waitTakesSeveralStates() throws {
        let wait = try #require(
            try LifebusCommand.parseAsRoot(["wait", "com.example.A", "background|suspended"]) as? LifebusCommand.Wait
        )
        #expect(wait.states.lifecycle == [.background, .suspended])
        #expect(throws: (any Error).self) { try LifebusCommand.parseAsRoot(["wait", "com.example.A", "asleep"]) }
    }

    @Test func historyParsesJournalAppAndLimit() throws {
        let history = try #require(
            try LifebusCommand.parseAsRoot(["history", "com.example.A", "--journal", "/tmp/j.jsonl", "--limit", "5"])
                as? LifebusCommand.History
        )
        #expect(history.app == "com.example.A")
        #expect(history.journal == "/tmp/j.jsonl")
        #expect(history.limit == 5)
    }

    @Test func watchTakesJSON() throws {
        let watch = try #require(try LifebusCommand.parseAsRoot(["watch", "--json"]) as? LifebusCommand.Watch)
        #expect(watch.global.json)
    }

    @Test(arguments: [
        (["wait", "com.example.A"], "Missing expected argument '<state>'"),
        (["wait", "com.example.A", "asleep"], "asleep"),
        (["wait", "com.example.A", "active", "--timeout", "soon"],
         "The value 'soon' is invalid for '--timeout <duration>'"),
        (["wait", "bad id", "active"], "bad id"),
        (["status", "a/b"], "a/b"),
        (["history", "--limit", "0"], "--limit"),
        (["history", "--limit", "many"], "many"),
        (["watch", "extra"], "Unexpected argument 'extra'"),
    ])
    func badArgumentsExitWithUsageNamingTheProblem(arguments: [String], problem: String) {
        #expect(CLIUsage.exitStatus(of: arguments) == CLIExitStatus.usage.rawValue)
        let message = CLIUsage.message(of: arguments) ?? "parsed"
        #expect(message.contains(problem), "\(message)")
    }

    @Test func aThrownExitStatusKeepsItsDocumentedValue() {
        #expect(LifebusCommand.exitStatus(for: CLIExitStatus.conditionNotMet) == 1)
        #expect(LifebusCommand.exitStatus(for: CLIExitStatus.unreachable) == 3)
        #expect(LifebusCommand.exitStatus(for: CLIExitStatus.refused) == 4)
    }
}
