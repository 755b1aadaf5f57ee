import ArgumentParser
import LifebusLifecycle
import LifebusProtocol
import Testing

@testable import LifebusCLI

/// `lifebus subscribe --scenes`: what it declares in hello, and what a scene callback's line and hook see.
@Suite struct SubscribeScenesTests {
    static let scene = CallbackScene(
        scene: SceneID(2), session: SceneSessionID(5), sceneState: .background, restoration: #"{"note":7}"#)

    @Test func theImplementedCallbacksAreTheHooksUnlessNamed() throws {
        let derived = try #require(try LifebusCommand.parseAsRoot([
            "subscribe", "--id", "com.x", "--scenes", "--on", "sceneDidEnterBackground=true", "--delay",
            "willConnectTo=1s",
        ]) as? LifebusCommand.Subscribe)
        #expect(derived.scenes)
        #expect(derived.implementedCallbacks == [.willConnectTo, .sceneDidEnterBackground])
        let named = try #require(try LifebusCommand.parseAsRoot([
            "subscribe", "--id", "com.x", "--scenes", "--implements", "didEnterBackground,sceneDidEnterBackground",
        ]) as? LifebusCommand.Subscribe)
        #expect(named.implementedCallbacks == [.didEnterBackground, .sceneDidEnterBackground])
    }

    @Test(arguments: [
        ["--multiple-scenes"], ["--restoration", #"{"a":1}"#], ["--scenes", "--restoration", "[1]"],
        ["--scenes", "--implements", "scenePhase"],
    ])
    func sceneOptionsWithoutScenesOrWithWrongValuesAreUsageErrors(words: [String]) {
        #expect(CLIUsage.exitStatus(of: ["subscribe", "--id", "com.x"] + words) == CLIExitStatus.usage.rawValue)
    }

    @Test func aSceneCallbacksLineAndHookNameItsSceneSessionAndPayload() {
        let params = CallbackParams(
            callbackID: 4, callback: .willConnectTo, state: .background, budgetMs: 10_000, scene: Self.scene)
        let line = SubscribeDelegate.line(for: params)
        #expect(line["scene"] == 2 && line["session"] == 5 && line["sceneState"] == "background")
        #expect(line["restoration"] == ["note": 7])
        let environment = SubscribeDelegate.environment(
            for: params, appID: "com.x", socketPath: "/s", markSocket: "/m")
        #expect(environment["LIFEBUS_SCENE"] == "2" && environment["LIFEBUS_SESSION"] == "5")
        #expect(environment["LIFEBUS_SCENE_STATE"] == "background")
        #expect(environment["LIFEBUS_RESTORATION"] == #"{"note":7}"#)
        let plain = CallbackParams(callbackID: 1, callback: .didBecomeActive, state: .active, budgetMs: 5000)
        #expect(SubscribeDelegate.line(for: plain)["scene"] == nil)
        #expect(SubscribeDelegate.environment(for: plain, appID: "com.x", socketPath: "/s", markSocket: "/m")
            .keys.filter { $0.hasPrefix("LIFEBUS_SCENE") || $0 == "LIFEBUS_SESSION" }.isEmpty)
    }

    @Test func theLaunchOptionsURLAndTappedNotificationReachTheHooks() {
        let launched = CallbackParams(
            callbackID: 1, callback: .didFinishLaunching, state: .inactive, budgetMs: 20_000,
            background: CallbackBackground(launchOptions: LaunchPayload(url: "notes://7")))
        let launch = SubscribeDelegate.environment(for: launched, appID: "com.x", socketPath: "/s", markSocket: "/m")
        #expect(launch["LIFEBUS_URL"] == "notes://7" && launch["LIFEBUS_PUSH"] == nil)
        let opened = CallbackParams(
            callbackID: 2, callback: .openURL, state: .active, budgetMs: 10_000,
            background: CallbackBackground(url: "notes://8"))
        #expect(SubscribeDelegate.environment(for: opened, appID: "com.x", socketPath: "/s", markSocket: "/m")[
            "LIFEBUS_URL"] == "notes://8")
        let tapped = CallbackParams(
            callbackID: 3, callback: .didReceiveNotificationResponse, state: .active, budgetMs: 10_000,
            background: CallbackBackground(payload: #"{"a":1}"#))
        #expect(SubscribeDelegate.environment(for: tapped, appID: "com.x", socketPath: "/s", markSocket: "/m")[
            "LIFEBUS_PUSH"] == #"{"a":1}"#)
        let silent = CallbackParams(
            callbackID: 4, callback: .didReceiveRemoteNotification, state: .background, budgetMs: 30_000,
            background: CallbackBackground(payload: #"{"a":1}"#))
        #expect(SubscribeDelegate.environment(for: silent, appID: "com.x", socketPath: "/s", markSocket: "/m")[
            "LIFEBUS_PUSH"] == nil)
    }
}
