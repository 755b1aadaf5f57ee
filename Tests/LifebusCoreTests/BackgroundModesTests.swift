import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// Which `UIBackgroundModes` keep an app running in the background (`Protocol/lifecycle.md` R29): a continuous mode
/// (a service that runs while the app is away) keeps it `background`; an event mode (`fetch`,
/// `remote-notification`, `processing`, `newsstand-content`) only lets the system wake it, so it is suspended as an
/// app without modes is; so is one whose only mode is a name iOS does not know.
@Suite("background modes")
struct BackgroundModesTests {
    static let continuous = ["audio", "location", "voip", "external-accessory", "bluetooth-central",
                             "bluetooth-peripheral"]
    static let events = ["fetch", "remote-notification", "processing", "newsstand-content", "no-such-mode"]

    /// App A's situation once it connected with `modes` and the user went home, under `ios17`.
    static func afterHome(_ modes: [String]) -> String {
        var harness = Harness(profile: .ios17)
        harness.run(.connect("A", AppFlags(backgroundModes: modes)))
        harness.run(.fire(.home))
        return harness.situation
    }

    @Test(arguments: continuous)
    func aContinuousModeKeepsTheAppInTheBackground(mode: String) {
        #expect(Self.afterHome([mode]) == "A=background front=-")
        #expect(Self.afterHome(["fetch", mode]) == "A=background front=-")
    }

    @Test(arguments: events)
    func anEventModeLetsTheAppBeSuspended(mode: String) {
        #expect(Self.afterHome([mode]) == "A=suspended front=-")
    }

    @Test func theFlagFollowsTheModesAsTheyChange() {
        var flags = AppFlags(backgroundModes: ["fetch", "remote-notification", "processing"])
        #expect(!flags.keepsRunningInBackground)
        flags.backgroundModes.append("audio")
        #expect(flags.keepsRunningInBackground)
        flags.backgroundModes = []
        #expect(!flags.keepsRunningInBackground)
        #expect(AppFlags.continuousBackgroundModes == Self.continuous)
    }
}
