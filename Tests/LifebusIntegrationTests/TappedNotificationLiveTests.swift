import LifebusJSON
import Testing

/// `lifebus fire push APP --alert --tap` through a real broker and the real FeedReader (`Protocol/lifecycle.md` B35,
/// B36): a tap on the notification of an app that is not running cold-launches it to the front, one of a suspended
/// app brings it back; each journals the notification `delivered` first; a locked device refuses the tap.
@Suite struct TappedNotificationLiveTests {
    static let id = "com.example.FeedReader"

    @Test func aTapLaunchesTheAppThenBringsItBackAndALockedDeviceRefusesIt() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17", "--clock", "manual"])
        let manifest = AppsSupervisedTests.manifest(
            Self.id, in: broker.ownFolder, executable: ChildProcess.productsFolder + "/FeedReader",
            arguments: ["--state-file", broker.socketPath + ".feed"])
        #expect(try broker.cli(["install", manifest]).status == 0)
        let cold = try broker.cli(["fire", "push", Self.id, "--alert", "--tap", "--payload", #"{"post":3}"#])
        #expect(cold.status == 0, "\(cold.out) \(cold.err)")
        #expect(try broker.reached(Self.id, "active"), "B35: launched to the front")
        let launch = try broker.transitions(of: Self.id).first { $0["callback"]?.stringValue == "didFinishLaunching" }
        #expect(launch?["to"]?.stringValue == "inactive", "a launch to the front, not into the background")
        #expect(launch?["cause"]?["event"]?.stringValue == #"push --tap com.example.FeedReader --payload {"post":3}"#,
                "\(String(describing: launch))")

        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.reached(Self.id, "suspended"))
        #expect(try broker.cli(["fire", "push", Self.id, "--tap"]).status == 0)
        #expect(try broker.reached(Self.id, "active"), "B36: back to the front")
        let delivered = try broker.history().filter { $0["type"] == "push" }.map { $0["event"]?.stringValue }
        #expect(delivered == ["delivered", "delivered"], "\(delivered)")

        #expect(try broker.cli(["fire", "sleep"]).status == 0)
        let locked = try broker.cli(["fire", "push", Self.id, "--tap"])
        #expect(locked.status != 0 && (locked.out + locked.err).contains("deviceLocked"), "\(locked)")
        #expect(try broker.cli(["fire", "push", Self.id, "--silent", "--tap"]).status == 2, "silent or visible")
        _ = try broker.cli(["fire", "wake"])
        _ = try broker.cli(["fire", "terminate", "--app", Self.id])
    }
}
