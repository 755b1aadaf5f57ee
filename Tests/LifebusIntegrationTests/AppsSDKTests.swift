import Glibc
import LifebusProtocol
import Testing

/// The Swift SDK in a real app process: DeepThoughts saves its state when sent away, exits by itself after
/// `willTerminate`, and restores what it saved when launched again.
@Suite struct AppsSDKTests {
    static let id = "com.example.DeepThoughts"

    @Test func deepThoughtsSavesOnHomeExitsAfterTerminateAndRestoresOnRelaunch() throws {
        let broker = try BrokerFixture()
        let stateFile = broker.socketPath + ".deepthoughts.state"
        defer { unlink(stateFile) }
        let arguments = ["--socket", broker.socketPath, "--state-file", stateFile]

        let first = try ChildProcess("DeepThoughts", arguments)
        #expect(try broker.reached(Self.id, "active"))
        let launch = try broker.transitions(of: Self.id).map(summary)
        #expect(launch == ["didFinishLaunching notRunning->inactive ok", "didBecomeActive inactive->active ok"])
        let restored = try broker.marks(of: Self.id).first { $0["name"]?.stringValue == "state-restored" }
        #expect(restored?["data"]?["found"]?.boolValue == false)

        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.reached(Self.id, "suspended"))
        let saved = try broker.marks(of: Self.id).last
        #expect(saved?["name"]?.stringValue == "state-saved")
        let background = try broker.transitions(of: Self.id).last {
            $0["callback"]?.stringValue == "didEnterBackground"
        }
        #expect((saved?["seq"]?.int64Value ?? .max) < (background?["seq"]?.int64Value ?? 0),
                "the state was saved while didEnterBackground ran, before its answer")
        #expect(saved?["data"]?["reason"]?.stringValue == "didEnterBackground")
        let thought = try #require(saved?["data"]?["thought"]?.int64Value)

        #expect(try broker.cli(["fire", "activate", Self.id]).status == 0)
        #expect(try broker.reached(Self.id, "active"))
        let terminated = try broker.cli(["fire", "terminate", "--app", Self.id, "--json"])
        let records = parsed(terminated.out)?["transitions"]?.arrayValue ?? []
        #expect(records.map(summary) == ["willTerminate active->notRunning ok"], "\(terminated.out) \(terminated.err)")
        #expect(first.waitForExit() == 0, "the SDK exits 0 by itself after answering willTerminate")
        let final = try broker.marks(of: Self.id).last
        #expect(final?["name"]?.stringValue == "state-saved")
        #expect(final?["data"]?["reason"]?.stringValue == "willTerminate")
        let savedAtExit = try #require(final?["data"]?["thought"]?.int64Value)
        #expect(savedAtExit != thought, "activating showed the next thought")

        let second = try ChildProcess("DeepThoughts", arguments)
        #expect(try broker.reached(Self.id, "active"))
        let relaunched = try broker.marks(of: Self.id).last { $0["name"]?.stringValue == "state-restored" }
        #expect(relaunched?["data"]?["found"]?.boolValue == true)
        #expect(relaunched?["data"]?["thought"]?.int64Value == savedAtExit)
        #expect(second.isAlive)
        try SupervisionCheck.run(broker)
    }
}
