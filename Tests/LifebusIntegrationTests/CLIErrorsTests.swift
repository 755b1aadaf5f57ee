import Glibc
import LifebusProtocol
import Testing

/// Errors that say what to do: from `lifebus` and `lifebusd` as real processes.
@Suite struct CLIErrorsTests {
    @Test func withJSONAnErrorIsOneJSONObjectOnStderr() throws {
        let socket = BrokerFixture.uniqueSocketPath("none")
        let unreachable = try runCLI(["status", "--json", "--socket", socket])
        #expect(unreachable.status == 3)
        let error = parsed(unreachable.err.split(separator: "\n").first.map(String.init))?["error"]
        #expect(error?["name"]?.stringValue == "lifebus.BrokerUnreachable", "\(unreachable.err)")
        #expect(error?["socket"]?.stringValue == socket)

        let broker = try BrokerFixture()
        let refused = try broker.cli(["fire", "call", "--end", "--json"])
        #expect(refused.status == 4)
        let rejection = parsed(refused.err.split(separator: "\n").first.map(String.init))?["error"]
        #expect(rejection?["name"]?.stringValue == "lifebus.EventRejected", "\(refused.err)")
        #expect(rejection?["reason"]?.stringValue == "noCall")

        let usage = try runCLI(["wait", "com.x", "asleep", "--json"])
        #expect(usage.status == 2)
        #expect(parsed(usage.err.split(separator: "\n").first.map(String.init))?["error"]?["name"]?.stringValue
            == "lifebus.UsageError", "\(usage.err)")
    }

    @Test func aMistypedSubcommandOrOptionGetsDidYouMean() throws {
        let typo = try runCLI(["fire", "hom"])
        #expect(typo.status == 2)
        #expect(typo.err.contains("Did you mean 'lifebus fire home'?"), "\(typo.err)")
        let daemon = try ChildProcess("lifebusd", ["--profil", "ios7"])
        #expect(daemon.waitForExit() == 2)
        #expect(daemon.stderr.readAll(timeout: .seconds(2)).contains("did you mean '--profile'?"))
    }

    @Test func bothBinariesAnswerVersionAndTheExampleAppsAnswerHelp() throws {
        #expect(try runCLI(["--version"]).out.hasPrefix(LifebusVersion.current))
        let daemon = try ChildProcess("lifebusd", ["--version"])
        #expect(daemon.stdout.readAll().hasPrefix(LifebusVersion.current))
        #expect(daemon.wait() == 0)
        for example in ["DeepThoughts", "ReturnMeTo"] {
            let app = try ChildProcess(example, ["--help"])
            #expect(app.stdout.readAll().contains("usage: \(example)"))
            #expect(app.wait() == 0)
        }
    }

    @Test func lifebusdWithASocketInAMissingDirectorySaysSo() throws {
        let daemon = try ChildProcess("lifebusd", ["--socket", "/nonexistent-lifebus-dir/x.sock"])
        #expect(daemon.waitForExit() == 1)
        let err = daemon.stderr.readAll(timeout: .seconds(2))
        #expect(err.contains("the directory /nonexistent-lifebus-dir does not exist"), "\(err)")
        #expect(!err.contains("stopped accepting"), "\(err)")
    }
}
