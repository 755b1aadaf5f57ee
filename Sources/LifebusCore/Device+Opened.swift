import LifebusLifecycle

/// What a launch opens the app with (`launch APP --url U | --push P`, `push --tap`; `Protocol/lifecycle.md` B35–B41):
/// a cold start of an app that does not use scenes finds it in `didFinishLaunching`'s `launchOptions`, a scene
/// app's connecting scene in its connection options (S03); once the app is in the foreground a URL is opened
/// (`openURL`, or a scene app's `openURLContexts`, S04) and a tapped notification reaches its
/// `UNUserNotificationCenter` delegate (`didReceiveNotificationResponse`) — at a launch too from iOS 10
/// (`Profile.tapReachesDelegateAtLaunch`). The pending payload is the book's `pendingOptions`, as for scenes.
extension Device {
    /// The launch options of app `i`'s cold start (it does not use scenes). Its URL stays pending and is opened once
    /// the app is in the foreground (B39: Apple calls `application(_:open:options:)` after a launch unless
    /// `didFinishLaunching` returns `false`, which the SDK's does not); its notification stays pending too where the
    /// tap reaches the app's notification delegate at a launch (`Profile.tapReachesDelegateAtLaunch`, B35), and is
    /// handed over here only before.
    mutating func takeLaunchOptions(_ i: Int) -> LaunchPayload? {
        guard var options = apps[i].scenes.pendingOptions, let launchOptions = LaunchPayload(options) else {
            return nil
        }
        if !configuration.profile.tapReachesDelegateAtLaunch {
            options.notificationResponse = nil
        }
        apps[i].scenes.pendingOptions = options.isEmpty ? nil : options
        return launchOptions
    }

    /// The options of app `i`'s connecting scene (`willConnectTo`): everything its launch opened. Its tapped
    /// notification stays pending as well where the tap reaches the app's notification delegate at a launch
    /// (`Profile.tapReachesDelegateAtLaunch`, B41): the delegate gets it once the app is in the foreground.
    mutating func takeConnectionOptions(_ i: Int) -> SceneConnectionOptions? {
        let options = apps[i].scenes.pendingOptions.take()
        if let payload = options?.notificationResponse, configuration.profile.tapReachesDelegateAtLaunch {
            apps[i].scenes.pendingOptions = SceneConnectionOptions(notificationResponse: payload)
        }
        return options
    }

    /// Hands app `i`, in the foreground, the next thing its launch opened: an app that does not use scenes gets its
    /// URL (`openURL`, B37–B39), either kind its tapped notification (`didReceiveNotificationResponse`, B35, B36,
    /// B40, B41). What is
    /// left for no callback (a scene app's URL its scenes did not take, a user activity) is dropped.
    mutating func deliverOpened(_ i: Int) {
        guard var options = apps[i].scenes.pendingOptions.take() else {
            return finishWork(i)
        }
        let delivery: (LifecycleCallback, SceneCallbackContext)
        if !usesScenes(i), !options.urlContexts.isEmpty {
            delivery = (.openURL, SceneCallbackContext(url: options.urlContexts.removeFirst()))
        } else if let payload = options.notificationResponse {
            options = .none  // a scene app's URL its scenes did not take goes with it
            delivery = (.didReceiveNotificationResponse, SceneCallbackContext(payload: payload))
        } else {
            return finishWork(i)
        }
        apps[i].scenes.pendingOptions = options.isEmpty ? nil : options
        send(i, delivery.0, to: apps[i].state, context: delivery.1, ownBudget: true)
    }
}
