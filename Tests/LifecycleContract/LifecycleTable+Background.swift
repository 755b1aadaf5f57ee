import LifebusLifecycle

// The background table of `Protocol/lifecycle.md` ("Background execution and data protection", rows B01…):
// BGTaskScheduler, and protected data around the lock. App-delegate apps, so every row applies under every profile
// but `ios27` (S30); the profiles before BGTaskScheduler (`ios13`), continued processing (`ios26`) or data protection
// (`ios13`) refuse or skip what is theirs.

/// One expectation per era that differs: each not given expects the one before it (`ios15`, `ios17` are `ios13`'s,
/// `ios27` is `ios26`'s).
private func eras(
    ios3: Expected, ios4: Expected? = nil, ios7: Expected? = nil, ios13: Expected, ios26: Expected? = nil
) -> [Profile: Expected] {
    let ios4 = ios4 ?? ios3
    let ios7 = ios7 ?? ios4
    let ios26 = ios26 ?? ios13
    return [.ios3: ios3, .ios4: ios4, .ios7: ios7, .ios13: ios13, .ios15: ios13, .ios17: ios13, .ios26: ios26,
            .ios27: ios26]
}

/// A silent push's expectations: `ios3` refuses it as `ios4` does, from a terminated app; `ios7` on deliver it.
private func pushEras(ios4: Expected, ios7: Expected) -> [Profile: Expected] {
    let ios3 = Expected(journal: ios4.journal, situation: "A=notRunning front=-")
    return eras(ios3: ios3, ios4: ios4, ios7: ios7, ios13: ios7)
}

/// The same expectation under every profile (a scene app's row: the profiles without scenes are inapplicable).
private func everyEra(_ expected: Expected) -> [Profile: Expected] {
    Dictionary(uniqueKeysWithValues: Profile.allCases.map { ($0, expected) })
}

private func E(_ situation: String, _ journal: String...) -> Expected {
    Expected(journal: journal, situation: situation)
}

/// An app whose manifest permits three task identifiers.
private let permits = AppFlags(permittedTaskIdentifiers: ["refresh", "clean", "export"])
/// The same, with a background mode that keeps it running in the background.
private let permitsAudio = AppFlags(backgroundModes: ["audio"], permittedTaskIdentifiers: ["export"])
private let audio = AppFlags(backgroundModes: ["audio"])
/// Permits `refresh` and keeps running in the background, so `home` leaves it running for a system terminate.
private let permitsRefreshAudio = AppFlags(backgroundModes: ["audio"], permittedTaskIdentifiers: ["refresh"])

/// A launch during which the app registers `identifiers` (its `didFinishLaunching` held until they are).
private func launchRegistering(_ app: AppID, _ identifiers: String..., flags: AppFlags = permits) -> [Step] {
    [.hold(app), .connect(app, flags)] + identifiers.map { .registerTask(app, $0) } + [.release(app)]
}

private let unavailable = "reject backgroundTasksUnavailable"
private let silent = PushNotification(contentAvailable: true, alert: false)
private let tapped = PushNotification(contentAvailable: false, alert: true, tapped: true)
/// A visible notification, not tapped (`push --alert`).
private let alert = PushNotification(contentAvailable: false, alert: true)
/// A launch's deep link (`launch A --url notes://7`).
private let deepLink = SceneConnectionOptions(urlContexts: ["notes://7"])
private let threePushes: [Step] = Array(repeating: .fire(.push("A", silent)), count: 3)
private let runRefresh = Step.fire(.backgroundTask("A", identifier: "refresh", action: .run))
/// A suspended A whose `clean` (processing, due in 60 s) requires external power and the network, on a locked device
/// on its battery and offline.
private let unpluggedIdleWithClean = launchRegistering("A", "clean")
    + [.submitTask("A", "clean", .processing, after: .seconds(60), requires: [.externalPower, .networkConnectivity]),
       .fire(.power(.battery)), .fire(.network(.offline)), .fire(.home), .fire(.sleep)]

extension LifecycleTable {
    package static let backgroundRows: [Row] = [
        Row(id: "B01", title: "a task identifier registered while launching",
            setup: [.hold("A"), .connect("A", permits)], steps: [.registerTask("A", "refresh"), .release("A")],
            expected: eras(
                ios3: E("A=active front=A", unavailable, "A didFinishLaunching notRunning→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios13: E("A=active front=A", "A didFinishLaunching notRunning→inactive ok",
                         "A didBecomeActive inactive→active ok"))),
        Row(id: "B02", title: "a task identifier registered after launch", setup: [.connect("A", permits)],
            steps: [.registerTask("A", "refresh")],
            expected: eras(ios3: E("A=active front=A", unavailable),
                           ios13: E("A=active front=A", "reject registrationClosed"))),
        Row(id: "B03", title: "a task identifier the manifest does not permit",
            setup: [.hold("A"), .connect("A", permits)], steps: [.registerTask("A", "sync"), .release("A")],
            expected: eras(
                ios3: E("A=active front=A", unavailable, "A didFinishLaunching notRunning→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios13: E("A=active front=A", "reject taskNotPermitted", "A didFinishLaunching notRunning→inactive ok",
                         "A didBecomeActive inactive→active ok"))),
        Row(id: "B04", title: "a submitted task run while its app is not running",
            setup: launchRegistering("A", "refresh") + [.submitTask("A", "refresh", .appRefresh),
                                                        .fire(.terminate("A", byUser: false))],
            steps: [.fire(.backgroundTask("A", identifier: "refresh", action: .run))],
            expected: eras(
                ios3: E("A=notRunning front=-", unavailable),
                ios13: E("A=background front=- A.refresh=running", "start A",
                         "launch A didFinishLaunching backgroundTask",
                         "A didFinishLaunching notRunning→background ok",
                         "A didEnterBackground background→background ok", "task A refresh launched",
                         "A performBackgroundTask background→background ok"))),
        Row(id: "B05", title: "a submitted task run while its app is suspended, then completed",
            setup: launchRegistering("A", "refresh") + [.submitTask("A", "refresh", .appRefresh), .fire(.home)],
            steps: [.fire(.backgroundTask("A", identifier: "refresh", action: .run)),
                    .completeTask("A", "refresh", success: true)],
            expected: eras(
                ios3: E("A=notRunning front=-", unavailable, "reject unknownTask"),
                ios4: E("A=suspended front=-", unavailable, "reject unknownTask"),
                ios13: E("A=suspended front=-", "A - suspended→background ok",
                         "A didEnterBackground background→background ok", "task A refresh launched",
                         "A performBackgroundTask background→background ok", "task A refresh completed true",
                         "A - background→suspended ok"))),
        Row(id: "B06", title: "a task falls due at its earliest begin date",
            setup: launchRegistering("A", "refresh") + [.submitTask("A", "refresh", .appRefresh, after: .seconds(900)),
                                                        .fire(.home)],
            steps: [.elapse(.seconds(899)), .elapse(.seconds(1))],
            expected: eras(
                ios3: E("A=notRunning front=-"), ios4: E("A=suspended front=-"),
                ios13: E("A=background front=- A.refresh=running", "A - suspended→background ok",
                         "A didEnterBackground background→background ok",
                         "task A refresh launched", "A performBackgroundTask background→background ok"))),
        Row(id: "B07", title: "a refresh task never completed",
            setup: launchRegistering("A", "refresh")
                + [.submitTask("A", "refresh", .appRefresh), .fire(.home), runRefresh],
            steps: [.elapse(.seconds(25)), .elapse(.seconds(5))],
            expected: eras(
                ios3: E("A=notRunning front=-"), ios4: E("A=suspended front=-"),
                ios13: E("A=notRunning front=-", "task A refresh expiring",
                         "A backgroundTaskWillExpire background→background ok", "task A refresh expired",
                         "kill A backgroundTaskExpired", "A - background→notRunning watchdog"))),
        Row(id: "B08", title: "a refresh task completed by its expiration handler",
            setup: launchRegistering("A", "refresh")
                + [.submitTask("A", "refresh", .appRefresh), .fire(.home), runRefresh],
            steps: [.elapse(.seconds(25)), .completeTask("A", "refresh", success: false), .elapse(.seconds(5))],
            expected: eras(
                ios3: E("A=notRunning front=-", "reject unknownTask"),
                ios4: E("A=suspended front=-", "reject unknownTask"),
                ios13: E("A=suspended front=-", "task A refresh expiring",
                         "A backgroundTaskWillExpire background→background ok", "task A refresh completed false",
                         "A - background→suspended ok"))),
        Row(id: "B09", title: "a processing task when the user comes back",
            setup: launchRegistering("A", "clean") + [.submitTask("A", "clean", .processing), .fire(.sleep),
                                                      .fire(.backgroundTask("A", identifier: "clean", action: .run))],
            steps: [.fire(.wake), .completeTask("A", "clean", success: false)],
            expected: eras(
                ios3: E("A=active front=A", "A didBecomeActive inactive→active ok", "reject unknownTask"),
                ios7: E("A=active front=A", "A willEnterForeground suspended→inactive ok",
                        "A didBecomeActive inactive→active ok", "reject unknownTask"),
                ios13: E("A=active front=A", "A willEnterForeground background→inactive ok",
                         "A didBecomeActive inactive→active ok",
                         "A protectedDataDidBecomeAvailable active→active ok",
                         "task A clean expiring", "A backgroundTaskWillExpire active→active ok",
                         "task A clean completed false"))),
        Row(id: "B10", title: "a continued-processing task started from the foreground, cancelled by the user",
            setup: launchRegistering("A", "export"),
            steps: [.submitTask("A", "export", .continuedProcessing), .fire(.home),
                    .fire(.backgroundTask("A", identifier: "export", action: .cancel)),
                    .completeTask("A", "export", success: false)],
            expected: eras(
                ios3: E("A=notRunning front=-", unavailable, "A willResignActive active→inactive ok",
                        "A willTerminate inactive→notRunning ok", unavailable, "reject unknownTask"),
                ios4: E("A=suspended front=-", unavailable, "A willResignActive active→inactive ok",
                        "A didEnterBackground inactive→background ok", "A - background→suspended ok", unavailable,
                        "reject unknownTask"),
                ios13: E("A=suspended front=-", unavailable, "A willResignActive active→inactive ok",
                         "A didEnterBackground inactive→background ok", "A - background→suspended ok",
                         "reject unknownTask", "reject unknownTask"),
                ios26: E("A=suspended front=-", "task A export submitted", "task A export launched",
                         "A performBackgroundTask active→active ok", "A willResignActive active→inactive ok",
                         "A didEnterBackground inactive→background ok", "task A export expiring",
                         "A backgroundTaskWillExpire background→background ok", "task A export completed false",
                         "A - background→suspended ok"))),
        Row(id: "B11", title: "a continued-processing task submitted from the background",
            setup: launchRegistering("A", "export", flags: permitsAudio) + [.fire(.home)],
            steps: [.submitTask("A", "export", .continuedProcessing)],
            expected: eras(ios3: E("A=notRunning front=-", unavailable), ios4: E("A=background front=-", unavailable),
                           ios13: E("A=background front=-", unavailable),
                           ios26: E("A=background front=-", "reject taskRequiresForeground"))),
        Row(id: "B12", title: "a continued-processing task when the app is closed in the switcher",
            setup: launchRegistering("A", "export") + [.submitTask("A", "export", .continuedProcessing)],
            steps: [.fire(.terminate("A", byUser: true))],
            expected: eras(
                ios3: E("A=notRunning front=-", "kill A user", "A - active→notRunning killed"),
                ios13: E("A=notRunning front=-", "kill A user", "A - active→notRunning killed"),
                ios26: E("A=notRunning front=-", "kill A user", "A - active→notRunning killed",
                         "task A export cancelled"))),
        Row(id: "B13", title: "a task run that was never submitted", setup: [.connect("A", permits)],
            steps: [.fire(.backgroundTask("A", identifier: "refresh", action: .run))],
            expected: eras(ios3: E("A=active front=A", unavailable),
                           ios13: E("A=active front=A", "reject unknownTask"))),
        Row(id: "B14", title: "a refresh task running when the system terminates its app",
            setup: launchRegistering("A", "refresh", flags: permitsRefreshAudio)
                + [.submitTask("A", "refresh", .appRefresh), .fire(.home), runRefresh],
            steps: [.fire(.terminate("A", byUser: false))],
            expected: eras(
                ios3: E("A=notRunning front=-", "reject appNotRunning"),
                ios4: E("A=notRunning front=-", "A willTerminate background→notRunning ok"),
                ios13: E("A=notRunning front=-", "task A refresh cancelled",
                         "A willTerminate background→notRunning ok"))),
        Row(id: "B15", title: "a processing task due while the device is in use waits for the lock",
            setup: launchRegistering("A", "clean")
                + [.submitTask("A", "clean", .processing, after: .seconds(60)), .fire(.home)],
            steps: [.elapse(.seconds(60)), .fire(.sleep)],
            expected: eras(
                ios3: E("A=notRunning front=- locked"), ios4: E("A=suspended front=- locked"),
                ios13: E("A=background front=- locked A.clean=running", "A - suspended→background ok",
                         "A didEnterBackground background→background ok",
                         "A protectedDataWillBecomeUnavailable background→background ok",
                         "task A clean launched", "A performBackgroundTask background→background ok"))),
        Row(id: "B16", title: "a processing task that requires power and network waits on battery and offline",
            setup: unpluggedIdleWithClean, steps: [.elapse(.seconds(60))],
            expected: eras(
                ios3: E("A=notRunning front=- locked"), ios4: E("A=suspended front=- locked"),
                ios13: E("A=suspended front=- locked dataLocked A.clean=waiting", "protected data unavailable"))),
        Row(id: "B17", title: "a waiting processing task runs once plugged in and online",
            setup: unpluggedIdleWithClean + [.elapse(.seconds(60))],
            steps: [.fire(.power(.external)), .fire(.network(.online))],
            expected: eras(
                ios3: E("A=notRunning front=- locked"), ios4: E("A=suspended front=- locked"),
                ios13: E("A=background front=- locked dataLocked A.clean=running", "A - suspended→background ok",
                         "A didEnterBackground background→background ok",
                         "A protectedDataWillBecomeUnavailable background→background ok",
                         "task A clean launched", "A performBackgroundTask background→background ok"))),
        Row(id: "B18", title: "a running processing task that requires power when the device is unplugged",
            setup: launchRegistering("A", "clean")
                + [.submitTask("A", "clean", .processing, requires: [.externalPower]), .fire(.home), .fire(.sleep),
                   .fire(.backgroundTask("A", identifier: "clean", action: .run))],
            steps: [.fire(.power(.battery)), .completeTask("A", "clean", success: false)],
            expected: eras(
                ios3: E("A=notRunning front=- locked", "reject unknownTask"),
                ios4: E("A=suspended front=- locked", "reject unknownTask"),
                ios13: E("A=suspended front=- locked", "task A clean expiring",
                         "A backgroundTaskWillExpire background→background ok", "task A clean completed false",
                         "A - background→suspended ok"))),
        Row(id: "B19", title: "a processing task run on demand whatever the conditions",
            setup: launchRegistering("A", "clean")
                + [.submitTask("A", "clean", .processing, requires: [.externalPower, .networkConnectivity]),
                   .fire(.power(.battery)), .fire(.network(.offline))],
            steps: [.fire(.backgroundTask("A", identifier: "clean", action: .run))],
            expected: eras(
                ios3: E("A=active front=A", unavailable),
                ios13: E("A=active front=A A.clean=running", "task A clean launched",
                         "A performBackgroundTask active→active ok"))),
        Row(id: "B20", title: "the device locks with an app running in the background",
            setup: [.connect("A", audio)],
            steps: [.fire(.sleep), .elapse(.seconds(9)), .elapse(.seconds(1))],
            expected: eras(
                ios3: E("A=inactive front=A locked", "A willResignActive active→inactive ok"),
                ios7: E("A=background front=A locked", "A willResignActive active→inactive ok",
                        "A didEnterBackground inactive→background ok"),
                ios13: E("A=background front=A locked dataLocked", "A willResignActive active→inactive ok",
                         "A didEnterBackground inactive→background ok",
                         "A protectedDataWillBecomeUnavailable background→background ok",
                         "protected data unavailable"))),
        Row(id: "B21", title: "the device is unlocked after protected data became unavailable",
            setup: [.connect("A", audio), .fire(.sleep), .elapse(.seconds(10))], steps: [.fire(.wake)],
            expected: eras(
                ios3: E("A=active front=A", "A didBecomeActive inactive→active ok"),
                ios7: E("A=active front=A", "A willEnterForeground background→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios13: E("A=active front=A", "protected data available",
                         "A willEnterForeground background→inactive ok", "A didBecomeActive inactive→active ok",
                         "A protectedDataDidBecomeAvailable active→active ok"))),
        Row(id: "B22", title: "the device is unlocked before protected data became unavailable",
            setup: [.connect("A", audio), .fire(.sleep), .elapse(.seconds(5))],
            steps: [.fire(.wake), .elapse(.seconds(10))],
            expected: eras(
                ios3: E("A=active front=A", "A didBecomeActive inactive→active ok"),
                ios7: E("A=active front=A", "A willEnterForeground background→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios13: E("A=active front=A", "A willEnterForeground background→inactive ok",
                         "A didBecomeActive inactive→active ok",
                         "A protectedDataDidBecomeAvailable active→active ok"))),
        Row(id: "B30", title: "a silent push to a suspended app", setup: [.connect("A"), .fire(.home)],
            steps: [.fire(.push("A", PushNotification(contentAvailable: true, alert: false)))],
            expected: pushEras(
                ios4: E("A=suspended front=-", unavailable),
                ios7: E("A=suspended front=-", "A - suspended→background ok",
                         "A didEnterBackground background→background ok", "push A delivered",
                        "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                        "A - background→suspended ok"))),
        Row(id: "B31", title: "a silent push to an app that is not running",
            setup: [.connect("A"), .fire(.terminate("A", byUser: false))],
            steps: [.fire(.push("A", PushNotification(contentAvailable: true, alert: false)))],
            expected: pushEras(
                ios4: E("A=notRunning front=-", unavailable),
                ios7: E("A=suspended front=-", "start A", "launch A didFinishLaunching remoteNotification",
                        "A didFinishLaunching notRunning→background ok",
                        "A didEnterBackground background→background ok", "push A delivered",
                        "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                        "A - background→suspended ok"))),
        Row(id: "B32", title: "a fourth silent push within the hour",
            setup: [.connect("A"), .fire(.home)] + threePushes,
            steps: [.fire(.push("A", silent)), .elapse(.seconds(3600))],
            expected: pushEras(
                ios4: E("A=suspended front=-", unavailable),
                ios7: E("A=suspended front=-", "push A deferred", "A - suspended→background ok",
                         "A didEnterBackground background→background ok", "push A delivered",
                        "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                        "A - background→suspended ok"))),
        Row(id: "B33", title: "a visible notification", setup: [.connect("A"), .fire(.home)],
            steps: [.fire(.push("A", alert))],
            expected: eras(ios3: E("A=notRunning front=-", "push A delivered"),
                           ios4: E("A=suspended front=-", "push A delivered"),
                           ios13: E("A=suspended front=-", "push A delivered"))),
        // Kept running in the background (audio), so the held answers are the push's alone: a suspended A is told
        // `didEnterBackground` first (B30), and holding that one is R-row watchdog territory.
        Row(id: "B34", title: "a silent push whose completion handler is never called",
            setup: [.connect("A", audio), .fire(.home)],
            steps: [.hold("A"), .fire(.push("A", silent)), .elapse(.seconds(30))],
            expected: pushEras(
                ios4: E("A=background front=-", unavailable),
                ios7: E("A=notRunning front=-", "push A delivered", "kill A watchdog",
                        "A didReceiveRemoteNotification background→notRunning watchdog"))),
        Row(id: "B35", title: "a tapped notification of an app that is not running",
            setup: [.connect("A"), .fire(.terminate("A", byUser: false))], steps: [.fire(.push("A", tapped))],
            expected: eras(
                ios3: E("A=active front=A", "push A delivered", "start A",
                        "launch A didFinishLaunching launchOptions remoteNotification",
                        "A didFinishLaunching notRunning→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios13: E("A=active front=A", "push A delivered", "start A",
                         "launch A didFinishLaunching launchOptions remoteNotification",
                         "A didFinishLaunching notRunning→inactive ok", "A didBecomeActive inactive→active ok",
                         "A didReceiveNotificationResponse active→active ok"))),
        Row(id: "B36", title: "a tapped notification of a suspended app", setup: [.connect("A"), .fire(.home)],
            steps: [.fire(.push("A", tapped))],
            expected: eras(
                ios3: E("A=active front=A", "push A delivered", "start A",
                        "launch A didFinishLaunching launchOptions remoteNotification",
                        "A didFinishLaunching notRunning→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios4: E("A=active front=A", "push A delivered", "A willEnterForeground suspended→inactive ok",
                        "A didBecomeActive inactive→active ok",
                        "A didReceiveNotificationResponse active→active ok"),
                ios13: E("A=active front=A", "push A delivered", "A willEnterForeground suspended→inactive ok",
                         "A didBecomeActive inactive→active ok",
                         "A didReceiveNotificationResponse active→active ok"))),
        Row(id: "B37", title: "a URL opened in a suspended app that does not use scenes",
            setup: [.connect("A"), .fire(.home)], steps: [.fire(.launch("A", options: deepLink))],
            expected: eras(
                ios3: E("A=active front=A", "start A",
                        "launch A didFinishLaunching launchOptions url",
                        "A didFinishLaunching notRunning→inactive ok",
                        "A didBecomeActive inactive→active ok", "A openURL active→active ok"),
                ios4: E("A=active front=A", "A willEnterForeground suspended→inactive ok",
                        "A didBecomeActive inactive→active ok", "A openURL active→active ok"),
                ios13: E("A=active front=A", "A willEnterForeground suspended→inactive ok",
                         "A didBecomeActive inactive→active ok", "A openURL active→active ok"))),
        Row(id: "B38", title: "a URL opened in the active app that does not use scenes", setup: [.connect("A")],
            steps: [.fire(.launch("A", options: deepLink))],
            expected: eras(ios3: E("A=active front=A", "A openURL active→active ok"),
                           ios13: E("A=active front=A", "A openURL active→active ok"))),
        Row(id: "B39", title: "a cold launch by a URL of an app that does not use scenes",
            setup: [.connect("A"), .fire(.terminate("A", byUser: false))],
            steps: [.fire(.launch("A", options: deepLink))],
            expected: eras(
                ios3: E("A=active front=A", "start A",
                        "launch A didFinishLaunching launchOptions url",
                        "A didFinishLaunching notRunning→inactive ok",
                        "A didBecomeActive inactive→active ok", "A openURL active→active ok"),
                ios13: E("A=active front=A", "start A",
                         "launch A didFinishLaunching launchOptions url",
                         "A didFinishLaunching notRunning→inactive ok",
                         "A didBecomeActive inactive→active ok", "A openURL active→active ok"))),
        Row(id: "B40", title: "a tapped notification of a suspended scene app",
            setup: [.connect("A", AppFlags(adoptsScenes: true)), .fire(.home)], steps: [.fire(.push("A", tapped))],
            expected: everyEra(E(
                "A=active A.s1=1:foregroundActive front=A", "push A delivered",
                "A/1 sceneWillEnterForeground background→foregroundInactive ok",
                "A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok",
                "A didReceiveNotificationResponse active→active ok"))),
        Row(id: "B41", title: "a tapped notification of a scene app that is not running",
            setup: [.connect("A", AppFlags(adoptsScenes: true)), .fire(.terminate("A", byUser: false))],
            steps: [.fire(.push("A", tapped))],
            expected: everyEra(E(
                "A=active A.s1=2:foregroundActive front=A", "push A delivered", "start A",
                "A didFinishLaunching notRunning→background ok", "A/2 willConnectTo unattached→unattached ok",
                "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok",
                "A didReceiveNotificationResponse active→active ok"))),
        Row(id: "B42", title: "a silent push to an app the user force-quit",
            setup: [.connect("A"), .fire(.terminate("A", byUser: true))], steps: [.fire(.push("A", silent))],
            expected: pushEras(
                ios4: E("A=notRunning front=-", unavailable),
                ios7: E("A=notRunning front=-", "push A discarded"))),
        Row(id: "B43", title: "a silent push after the user relaunched a force-quit app",
            setup: [.connect("A"), .fire(.terminate("A", byUser: true)), .fire(.launch("A"))],
            steps: [.fire(.terminate("A", byUser: false)), .fire(.push("A", silent))],
            expected: pushEras(
                ios4: E("A=notRunning front=-", "A willTerminate active→notRunning ok", unavailable),
                ios7: E("A=suspended front=-", "A willTerminate active→notRunning ok", "start A",
                        "launch A didFinishLaunching remoteNotification",
                        "A didFinishLaunching notRunning→background ok",
                        "A didEnterBackground background→background ok", "push A delivered",
                        "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                        "A - background→suspended ok"))),
        Row(id: "B44", title: "a fifth silent push within the hour, then a force-quit",
            setup: [.connect("A"), .fire(.home)] + threePushes + [.fire(.push("A", silent))],
            steps: [.fire(.push("A", silent)), .fire(.terminate("A", byUser: true))],
            expected: eras(
                ios3: E("A=notRunning front=-", unavailable, "reject appNotRunning"),
                ios4: E("A=notRunning front=-", unavailable, "kill A user", "A - suspended→notRunning killed"),
                ios7: E("A=notRunning front=-", "push A discarded", "push A deferred", "kill A user",
                        "A - suspended→notRunning killed", "push A discarded"),
                ios13: E("A=notRunning front=-", "push A discarded", "push A deferred", "kill A user",
                         "A - suspended→notRunning killed", "push A discarded"))),
        Row(id: "B45", title: "the user launches an app holding a silent push",
            setup: [.connect("A"), .fire(.home)] + threePushes + [.fire(.push("A", silent))],
            steps: [.fire(.launch("A"))],
            expected: eras(
                ios3: E("A=active front=A", "start A", "A didFinishLaunching notRunning→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios4: E("A=active front=A", "A willEnterForeground suspended→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios7: E("A=active front=A", "A willEnterForeground suspended→inactive ok",
                        "A didBecomeActive inactive→active ok", "push A delivered",
                        "A didReceiveRemoteNotification active→active ok", "push A answered noData"),
                ios13: E("A=active front=A", "A willEnterForeground suspended→inactive ok",
                         "A didBecomeActive inactive→active ok", "push A delivered",
                         "A didReceiveRemoteNotification active→active ok", "push A answered noData"))),
        Row(id: "B46", title: "a second app refresh request pending, and a resubmission that replaces the first",
            setup: launchRegisteringMany + [.submitTask("A", "refresh", .appRefresh)],
            steps: [.submitTask("A", "refresh", .appRefresh), .submitTask("A", "feed", .appRefresh)],
            expected: eras(ios3: E("A=active front=A", unavailable, unavailable),
                           ios13: E("A=active front=A A.refresh=pending", "task A refresh submitted",
                                    "reject tooManyPendingTaskRequests"))),
        Row(id: "B47", title: "an eleventh processing request pending, and a refresh request while one runs",
            setup: launchRegisteringMany + [.submitTask("A", "refresh", .appRefresh), runRefresh]
                + processingIDs.dropLast().map { .submitTask("A", $0, .processing) },
            steps: [.submitTask("A", "p10", .processing), .submitTask("A", "refresh", .appRefresh)],
            expected: eras(ios3: E("A=active front=A", unavailable, unavailable),
                           ios13: E(elevenPending, "reject tooManyPendingTaskRequests", "task A refresh submitted"))),
        Row(id: "B48", title: "a silent push resumes an app suspended before the lock",
            setup: [.connect("A"), .fire(.home), .fire(.sleep)], steps: [.fire(.push("A", silent))],
            expected: eras(
                ios3: E("A=notRunning front=- locked", unavailable), ios4: E("A=suspended front=- locked", unavailable),
                ios7: E("A=suspended front=- locked", "A - suspended→background ok",
                         "A didEnterBackground background→background ok", "push A delivered",
                        "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                        "A - background→suspended ok"),
                ios13: E("A=suspended front=- locked", "A - suspended→background ok",
                         "A didEnterBackground background→background ok",
                         "A protectedDataWillBecomeUnavailable background→background ok", "push A delivered",
                         "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                         "A - background→suspended ok"))),
        Row(id: "B49", title: "a silent push after a lock and an unlock the suspended app slept through",
            setup: [.connect("A"), .fire(.home), .fire(.sleep), .elapse(.seconds(10)), .fire(.wake)],
            steps: [.fire(.push("A", silent))],
            expected: pushEras(
                ios4: E("A=suspended front=-", unavailable),
                ios7: E("A=suspended front=-", "A - suspended→background ok",
                         "A didEnterBackground background→background ok", "push A delivered",
                        "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                        "A - background→suspended ok"))),
        Row(id: "B50", title: "the user brings back an app suspended while told protected data is going",
            setup: lockedAtSuspension, steps: [.fire(.wake), .fire(.launch("A"))],
            expected: eras(
                ios3: E("A=active front=A", "start A", "A didFinishLaunching notRunning→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios4: E("A=active front=A", "A willEnterForeground suspended→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                ios13: E("A=active front=A", "protected data available", "A willEnterForeground suspended→inactive ok",
                         "A protectedDataDidBecomeAvailable inactive→inactive ok",
                         "A didBecomeActive inactive→active ok"))),
        Row(id: "B51", title: "a silent push resumes an app suspended while told protected data is going",
            setup: lockedAtSuspension, steps: [.fire(.wake), .fire(.push("A", silent))],
            expected: eras(
                ios3: E("A=notRunning front=-", unavailable), ios4: E("A=suspended front=-", unavailable),
                ios7: E("A=suspended front=-", "A - suspended→background ok",
                         "A didEnterBackground background→background ok", "push A delivered",
                        "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                        "A - background→suspended ok"),
                ios13: E("A=suspended front=-", "protected data available", "A - suspended→background ok",
                         "A didEnterBackground background→background ok",
                         "A protectedDataDidBecomeAvailable background→background ok", "push A delivered",
                         "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                         "A - background→suspended ok"))),
        Row(id: "B60", title: "a visible notification to the active app", setup: [.connect("A")],
            steps: [.fire(.push("A", alert))],
            expected: eras(ios3: E("A=active front=A", "push A delivered"),
                           ios13: E("A=active front=A", "push A delivered",
                                    "A willPresentNotification active→active ok", "push A presented none"))),
        Row(id: "B61", title: "a visible notification to the active scene app",
            setup: [.connect("A", AppFlags(adoptsScenes: true))], steps: [.fire(.push("A", alert))],
            expected: everyEra(E("A=active A.s1=1:foregroundActive front=A", "push A delivered",
                                 "A willPresentNotification active→active ok", "push A presented none"))),
        Row(id: "B62", title: "a visible notification to an app running in the background",
            setup: [.connect("A", audio), .fire(.home)], steps: [.fire(.push("A", alert))],
            expected: eras(ios3: E("A=notRunning front=-", "push A delivered"),
                           ios4: E("A=background front=-", "push A delivered"),
                           ios13: E("A=background front=-", "push A delivered"))),
        Row(id: "B63", title: "a visible notification to the inactive app (a call ringing)",
            setup: [.connect("A"), .fire(.call(.ring))], steps: [.fire(.push("A", alert))],
            expected: eras(ios3: E("A=inactive front=A call=ringing", "push A delivered"),
                           ios13: E("A=inactive front=A call=ringing", "push A delivered",
                                    "A willPresentNotification inactive→inactive ok", "push A presented none"))),
        Row(id: "B64", title: "a refresh task due for an app the user force-quit",
            setup: launchRegistering("A", "refresh")
                + [.submitTask("A", "refresh", .appRefresh, after: .seconds(900)),
                   .fire(.terminate("A", byUser: true))],
            steps: [.elapse(.seconds(900)), runRefresh],
            expected: eras(
                ios3: E("A=notRunning front=-", unavailable),
                ios13: E("A=notRunning front=- A.refresh=pending", "task A refresh deferred",
                         "task A refresh deferred"))),
        Row(id: "B65", title: "a processing task due for an app the user force-quit",
            setup: launchRegistering("A", "clean")
                + [.submitTask("A", "clean", .processing), .fire(.terminate("A", byUser: true))],
            steps: [.fire(.backgroundTask("A", identifier: "clean", action: .run))],
            expected: eras(
                ios3: E("A=notRunning front=-", unavailable),
                ios13: E("A=background front=- A.clean=running", "start A",
                         "launch A didFinishLaunching backgroundTask",
                         "A didFinishLaunching notRunning→background ok",
                         "A didEnterBackground background→background ok", "task A clean launched",
                         "A performBackgroundTask background→background ok"))),
        Row(id: "B66", title: "a refresh task after the user relaunched a force-quit app",
            setup: launchRegistering("A", "refresh")
                + [.submitTask("A", "refresh", .appRefresh), .fire(.terminate("A", byUser: true)), .fire(.launch("A"))],
            steps: [.fire(.terminate("A", byUser: false)), runRefresh],
            expected: eras(
                ios3: E("A=notRunning front=-", "A willTerminate active→notRunning ok", unavailable),
                ios13: E("A=background front=- A.refresh=running", "A willTerminate active→notRunning ok", "start A",
                         "launch A didFinishLaunching backgroundTask",
                         "A didFinishLaunching notRunning→background ok",
                         "A didEnterBackground background→background ok", "task A refresh launched",
                         "A performBackgroundTask background→background ok"))),
    ]
}

// B46–B47: `BGTaskScheduler`'s limit on pending requests.

/// The processing identifiers of B47: one more than the 10 an app may have pending.
private let processingIDs = (0...10).map { "p\($0)" }
/// An app permitted `refresh`, `feed` and the processing identifiers, registering them all while it launches.
private let launchRegisteringMany: [Step] = {
    let identifiers = ["refresh", "feed"] + processingIDs
    return [.hold("A"), .connect("A", AppFlags(permittedTaskIdentifiers: identifiers))]
        + identifiers.map { .registerTask("A", $0) } + [.release("A")]
}()
/// B47's end: `refresh` running, 10 processing requests and the new `refresh` pending.
private let elevenPending = "A=active front=A A.refresh=running "
    + processingIDs.dropLast().map { "A.\($0)=pending" }.joined(separator: " ") + " A.refresh=pending"

// B48–B51: protected-data notifications queued for a suspended app, the net change told when it runs again.

/// A suspended A told at a silent push that protected data will become unavailable (B48), suspended again; the
/// data went 10 s after the lock.
private let lockedAtSuspension: [Step] = [
    .connect("A"), .fire(.home), .fire(.sleep), .fire(.push("A", silent)), .elapse(.seconds(10)),
]
