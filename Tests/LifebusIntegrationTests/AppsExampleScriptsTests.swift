import Glibc
import Testing

/// The shell scripts a user copies (`scripts/examples/*.sh`) keep working: each is run against the built binaries.
@Suite struct AppsExampleScriptsTests {
    static var scripts: [String] {
        fileNames(in: "\(TranscriptReplayTests.repositoryRoot)/scripts/examples", endingWith: ".sh")
    }

    @Test func thereAreExampleScripts() {
        #expect(Self.scripts.count >= 5)
    }

    @Test(arguments: scripts)
    func exampleScriptPassesItsChecks(name: String) throws {
        let path = "\(TranscriptReplayTests.repositoryRoot)/scripts/examples/\(name)"
        let script = try ChildProcess("/bin/bash", [path], environment: ["LIFEBUS_BIN": ChildProcess.productsFolder])
        let out = script.stdout.readAll(timeout: .seconds(60))
        let err = script.stderr.readAll(timeout: .seconds(5))
        if script.isAlive { script.signal(SIGKILL) }  // it overran: fail rather than hang the suite
        #expect(script.wait() == 0, "\(name):\n\(out)\n\(err)")
        #expect(out.contains("all checks passed"), "\(name):\n\(out)")
    }
}
