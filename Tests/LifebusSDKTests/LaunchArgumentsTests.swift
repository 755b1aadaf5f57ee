import Glibc
@testable import Lifebus
import Testing

/// The command line every SDK app understands, the state file, and the reconnection delays.
struct LaunchArgumentsTests {
    @Test func knownOptionsAreParsedInBothSpellingsAndOthersKept() throws {
        let arguments = try LaunchArguments(parsing: [
            "--socket", "/tmp/s.sock", "--state-file=/tmp/state", "--background-mode", "audio",
            "--background-mode=voip", "--exits-on-suspend", "--launch-in-background", "--verbose",
        ])
        #expect(arguments.socketPath == "/tmp/s.sock")
        #expect(arguments.stateFile == "/tmp/state")
        #expect(arguments.backgroundModes == ["audio", "voip"])
        #expect(arguments.exitsOnSuspend && arguments.launchInBackground)
        #expect(arguments.remaining == ["--verbose"])
        #expect(arguments.options.socketPath == "/tmp/s.sock")
        #expect(arguments.options.backgroundModes == ["audio", "voip"])
    }

    @Test(arguments: [
        ["--socket"], ["--state-file="], ["--exits-on-suspend=yes"], ["--background-mode"],
        ["--background-mode", "audoi"],
    ])
    func mistakesAreRefused(_ arguments: [String]) {
        #expect(throws: LaunchArguments.Failure.self) { try LaunchArguments(parsing: arguments) }
    }

    @Test func theStateFilePathPrefersTheExplicitOneThenTheDirectoryVariable() {
        #expect(StateFile.path(for: "a.b", explicit: "/x/y", environment: ["LIFEBUS_STATE_DIR": "/d"]) == "/x/y")
        #expect(StateFile.path(for: "a.b", explicit: nil, environment: ["LIFEBUS_STATE_DIR": "/d/"]) == "/d/a.b.state")
        let fallback = "/tmp/lifebus-\(getuid())/state/a.b.state"
        #expect(StateFile.path(for: "a.b", explicit: nil, environment: [:]) == fallback)
    }

    @Test func stateFileValuesRoundTripAndAMissingFileReadsAsNil() throws {
        let directory = "/tmp/lifebus-sdk-test-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let file = StateFile(path: directory + "/nested/app.state")
        #expect(try file.readValues() == nil)
        try file.write(values: [("thought", "3"), ("text", "a = b")])
        #expect(try file.readValues() == ["thought": "3", "text": "a = b"])
        try file.write(values: [("thought", "4")])
        #expect(try file.readValues() == ["thought": "4"])
        unlink(file.path)
        rmdir(directory + "/nested")
        rmdir(directory)
    }
}
