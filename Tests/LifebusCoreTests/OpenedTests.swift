import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// What the rows B35–B41 do not show: what the callbacks carry — the launch options of an app that does not use
/// scenes (and none for a scene app: its connecting scene's options have the payload), `openURL`'s URL and
/// `didReceiveNotificationResponse`'s payload.
@Suite("what a launch opens an app with")
struct OpenedTests {
    static let deepLink = SceneConnectionOptions(urlContexts: ["notes://7"])
    static let tapped = PushNotification(contentAvailable: false, alert: true, payload: #"{"note":9}"#, tapped: true)

    /// A harness whose app A connected with `flags`, then was terminated by the system.
    static func terminated(_ profile: Profile, _ flags: AppFlags = AppFlags()) -> Harness {
        var harness = Harness(profile: profile)
        harness.run(.connect("A", flags))
        harness.run(.fire(.terminate("A", byUser: false)))
        return harness
    }

    @Test("a cold launch by a URL: launchOptions.url, then openURL with it")
    func aColdLaunchByAURLCarriesItTwice() {
        var harness = Self.terminated(.ios7)
        let start = harness.journal.count
        harness.run(.fire(.launch("A", options: Self.deepLink)))
        let sent = BackgroundExecutionTests.sent(harness, since: start)
        #expect(sent.map(\.0) == [.didFinishLaunching, .didBecomeActive, .openURL])
        #expect(sent[0].1?.launchOptions == LaunchPayload(url: "notes://7"))
        #expect(sent[2].1?.url == "notes://7")
    }

    @Test("a cold launch by a tap before iOS 10: launchOptions.remoteNotification, no response callback",
          arguments: [Profile.ios4, .ios7])
    func aColdLaunchByATapCarriesThePayloadInTheLaunchOptions(profile: Profile) {
        var harness = Self.terminated(profile)
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.tapped)))
        let sent = BackgroundExecutionTests.sent(harness, since: start)
        #expect(sent.map(\.0) == [.didFinishLaunching, .didBecomeActive])
        #expect(sent[0].1?.launchOptions == LaunchPayload(remoteNotification: #"{"note":9}"#))
    }

    @Test("a cold launch by a tap from iOS 10: launchOptions.remoteNotification, then the delegate's response",
          arguments: Profile.allCases.filter { $0.tapReachesDelegateAtLaunch && $0.sceneSupport != .required })
    func aColdLaunchByATapReachesTheDelegateToo(profile: Profile) {
        var harness = Self.terminated(profile)
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.tapped)))
        let sent = BackgroundExecutionTests.sent(harness, since: start)
        #expect(sent.map(\.0) == [.didFinishLaunching, .didBecomeActive, .didReceiveNotificationResponse])
        #expect(sent[0].1?.launchOptions == LaunchPayload(remoteNotification: #"{"note":9}"#))
        #expect(sent[2].1?.payload == #"{"note":9}"#)
    }

    @Test("a scene app cold-launched by a tap: the connecting scene's options, then the delegate's response",
          arguments: Profile.allCases.filter { $0.sceneSupport != .none })
    func aSceneAppColdLaunchedByATapGetsThePayloadTwice(profile: Profile) {
        var harness = Self.terminated(profile, AppFlags(adoptsScenes: true))
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.tapped)))
        let sent = BackgroundExecutionTests.sent(harness, since: start)
        #expect(sent.first?.0 == .didFinishLaunching && sent.first?.1?.launchOptions == nil)
        #expect(sent.first { $0.0 == .willConnectTo }?.1?.options?.notificationResponse == #"{"note":9}"#)
        #expect(sent.last?.0 == .didReceiveNotificationResponse && sent.last?.1?.payload == #"{"note":9}"#)
        #expect(sent.filter { $0.0 == .didReceiveNotificationResponse }.count == 1)
    }

    @Test("a scene app's launchOptions are nil: the connecting scene has the URL (bugs 5 and 6)")
    func aSceneAppsLaunchOptionsAreNil() {
        var harness = Self.terminated(.ios27, AppFlags(adoptsScenes: true))
        let start = harness.journal.count
        harness.run(.fire(.launch("A", options: Self.deepLink)))
        let sent = BackgroundExecutionTests.sent(harness, since: start)
        #expect(sent.first?.0 == .didFinishLaunching && sent.first?.1?.launchOptions == nil)
        #expect(sent.first { $0.0 == .willConnectTo }?.1?.options?.urlContexts == ["notes://7"])
        #expect(!sent.contains { $0.0 == .openURL || $0.0 == .openURLContexts })
    }

    @Test("a tap that finds the app running hands its payload over once the app is in front", arguments: [false, true])
    func aTapReachesTheRunningApp(scenes: Bool) {
        var harness = Harness(profile: .ios17)
        harness.run(.connect("A", AppFlags(adoptsScenes: scenes)))
        harness.run(.fire(.home))
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.tapped)))
        let sent = BackgroundExecutionTests.sent(harness, since: start)
        #expect(sent.last?.0 == .didReceiveNotificationResponse)
        #expect(sent.last?.1?.payload == #"{"note":9}"#)
        #expect(sent.filter { $0.0 == .didReceiveNotificationResponse }.count == 1)
    }
}
