import LifebusLifecycle

// The scene table of `Protocol/lifecycle.md` ("Scenes", rows S01…): scene apps under the scene eras. A row names the
// profiles it applies to through its apps (`Row.inapplicable`): a scene app is refused before ios13.

/// One expectation under every scene era (`ios13`…`ios27`).
private func scenes(_ situation: String, _ journal: String...) -> [Profile: Expected] {
    let expected = Expected(journal: journal, situation: situation)
    return Dictionary(uniqueKeysWithValues: Profile.allCases.map { ($0, expected) })
}

/// One expectation per scene era that differs: each era not given expects the one before it.
private func eras(
    ios13: Expected, ios15: Expected? = nil, ios17: Expected? = nil, ios26: Expected? = nil, ios27: Expected? = nil
) -> [Profile: Expected] {
    let ios15 = ios15 ?? ios13
    let ios17 = ios17 ?? ios15
    let ios26 = ios26 ?? ios17
    let ios27 = ios27 ?? ios26
    return [.ios13: ios13, .ios15: ios15, .ios17: ios17, .ios26: ios26, .ios27: ios27]
}

/// One expectation per kind of profile: without scenes (`ios3`, `ios4`, `ios7`), scenes optional (`ios13`…`ios26`),
/// scenes required (`ios27`; by default as optional).
private func bySceneSupport(
    none without: Expected, optional: Expected, required: Expected? = nil
) -> [Profile: Expected] {
    Dictionary(uniqueKeysWithValues: Profile.allCases.map { profile in
        let expected: Expected
        switch profile.sceneSupport {
        case .none: expected = without
        case .optional: expected = optional
        case .required: expected = required ?? optional
        }
        return (profile, expected)
    })
}

private func E(_ situation: String, _ journal: String...) -> Expected {
    Expected(journal: journal, situation: situation)
}

private let scene = AppFlags(adoptsScenes: true)
private let windows = AppFlags(adoptsScenes: true, supportsMultipleScenes: true)
private let sceneAudio = AppFlags(backgroundModes: ["audio"], adoptsScenes: true)
private let dismissible = AppFlags(adoptsScenes: true, destructionConditions: .userInitiatedDismissal)
private let ephemeral = AppFlags(adoptsScenes: true, destructionConditions: .systemDisconnection)

extension LifecycleTable {
    /// The scene rows, S01…: the core's `LifecycleTableTests`, the integration `RowRunner` and the kit's
    /// `SceneRowsTests` (in memory and live) run every one.
    package static let sceneRows: [Row] = [
        Row(id: "S01", title: "cold launch of a scene app", setup: [], steps: [.connect("A", scene)],
            expected: scenes(
                "A=active A.s1=1:foregroundActive front=A",
                "A didFinishLaunching notRunning→background ok",
                "A configurationForConnecting background→background ok",
                "A/1 willConnectTo unattached→unattached ok",
                "A/1 sceneWillEnterForeground unattached→foregroundInactive ok",
                "A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
            tags: [.scene]),
        Row(id: "S02", title: "relaunch reconnects the session used last, handed its payload",
            setup: [.connect("A", scene), .restores("A", "{\"note\":1}"), .fire(.home),
                    .fire(.scene(.reclaim("A", SceneID(1)))), .fire(.terminate("A", byUser: false))],
            steps: [.fire(.launch("A"))],
            expected: eras(
                ios13: E("A=active A.s1=2:foregroundActive+saved front=A",
                         "start A",
                         "A didFinishLaunching notRunning→background ok",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
                ios15: E("A=active A.s1=2:foregroundActive+saved front=A",
                         "start A",
                         "A didFinishLaunching notRunning→background ok",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A/2 restoreInteractionState unattached→unattached ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok")),
            tags: [.scene]),
        Row(id: "S03", title: "a launch's URL reaches the running app's active scene",
            setup: [.connect("A", scene)],
            steps: [.fire(.launch("A", options: SceneConnectionOptions(urlContexts: ["notes://42"])))],
            expected: scenes(
                "A=active A.s1=1:foregroundActive front=A",
                "A/1 openURLContexts foregroundActive→foregroundActive ok"),
            tags: [.scene]),
        Row(id: "S10", title: "home: the scene resigns and enters the background", setup: [.connect("A", scene)],
            steps: [.fire(.home)],
            expected: scenes(
                "A=suspended A.s1=1:background front=-",
                "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                "A/1 sceneDidEnterBackground foregroundInactive→background ok",
                "A - background→suspended ok"),
            tags: [.scene]),
        Row(id: "S11", title: "a call rings and is declined: the scene resigns, then is active again",
            setup: [.connect("A", scene)], steps: [.fire(.call(.ring)), .fire(.call(.decline))],
            expected: scenes(
                "A=active A.s1=1:foregroundActive front=A",
                "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                "A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
            tags: [.scene]),
        Row(id: "S12", title: "lock and unlock", setup: [.connect("A", scene)],
            steps: [.fire(.sleep), .fire(.wake)],
            expected: scenes(
                "A=active A.s1=1:foregroundActive front=A",
                "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                "A/1 sceneDidEnterBackground foregroundInactive→background ok",
                "A - background→suspended ok",
                "A/1 sceneWillEnterForeground background→foregroundInactive ok",
                "A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
            tags: [.scene]),
        Row(id: "S13", title: "return from the background", setup: [.connect("A", scene), .fire(.home)],
            steps: [.fire(.launch("A"))],
            expected: scenes(
                "A=active A.s1=1:foregroundActive front=A",
                "A/1 sceneWillEnterForeground background→foregroundInactive ok",
                "A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
            tags: [.scene]),
        Row(id: "S20", title: "a second window opens: the first resigns, the new one connects and is active",
            setup: [.connect("A", windows)], steps: [.fire(.scene(.open("A", .none)))],
            expected: scenes(
                "A=active A.s1=1:foregroundInactive A.s2=2:foregroundActive front=A",
                "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                "A configurationForConnecting inactive→inactive ok",
                "A/2 willConnectTo unattached→unattached ok",
                "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
            tags: [.scene]),
        Row(id: "S21", title: "a second window of an app without multiple scenes is refused",
            setup: [.connect("A", scene)], steps: [.fire(.scene(.open("A", .none)))],
            expected: scenes(
                "A=active A.s1=1:foregroundActive front=A",
                "reject multipleScenesUnsupported"),
            tags: [.scene]),
        Row(id: "S22", title: "one of two windows is swiped away",
            setup: [.connect("A", windows), .fire(.scene(.open("A", .none)))],
            steps: [.fire(.scene(.close("A", SceneID(1))))],
            expected: eras(
                ios13: E("A=active A.s2=2:foregroundActive front=A",
                         "A/1 sceneDidEnterBackground foregroundInactive→background ok",
                         "A/1 sceneDidDisconnect background→unattached ok",
                         "A didDiscardSceneSessions active→active ok"),
                ios17: E("A=active A.s2=2:foregroundActive front=A",
                         "A/1 sceneDidDisconnect foregroundInactive→unattached ok",
                         "A didDiscardSceneSessions active→active ok")),
            tags: [.scene]),
        Row(id: "S23", title: "a window of a suspended app is swiped away: the app is told at its next launch",
            setup: [.connect("A", windows), .fire(.scene(.open("A", .none))), .fire(.home)],
            steps: [.fire(.scene(.close("A", SceneID(1)))), .fire(.terminate("A", byUser: false)),
                    .fire(.launch("A"))],
            expected: scenes(
                "A=active A.s2=3:foregroundActive front=A",
                "kill A system",
                "A - suspended→notRunning killed",
                "start A",
                "A didFinishLaunching notRunning→background ok",
                "A didDiscardSceneSessions background→background ok",
                "A/3 willConnectTo unattached→unattached ok",
                "A/3 sceneWillEnterForeground unattached→foregroundInactive ok",
                "A/3 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
            tags: [.scene]),
        Row(id: "S24", title: "the app is swiped away while in front", setup: [.connect("A", scene)],
            steps: [.fire(.scene(.close("A", nil)))],
            expected: eras(
                ios13: E("A=notRunning front=-",
                         "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                         "A/1 sceneDidEnterBackground foregroundInactive→background ok",
                         "A willTerminate background→notRunning ok"),
                ios17: E("A=notRunning front=-",
                         "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                         "A/1 sceneDidDisconnect foregroundInactive→unattached ok",
                         "A didDiscardSceneSessions background→background ok",
                         "A willTerminate background→notRunning ok")),
            tags: [.scene]),
        Row(id: "S25", title: "the app is swiped away while suspended", setup: [.connect("A", scene), .fire(.home)],
            steps: [.fire(.terminate("A", byUser: true)), .fire(.launch("A"))],
            expected: scenes(
                "A=active A.s2=2:foregroundActive front=A",
                "kill A user",
                "A - suspended→notRunning killed",
                "start A",
                "A didFinishLaunching notRunning→background ok",
                "A didDiscardSceneSessions background→background ok",
                "A configurationForConnecting background→background ok",
                "A/2 willConnectTo unattached→unattached ok",
                "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
            tags: [.scene]),
        Row(id: "S26", title: "a background scene is reclaimed: its payload is kept, its session survives",
            setup: [.connect("A", scene), .restores("A", "{\"note\":1}"), .fire(.home)],
            steps: [.fire(.scene(.reclaim("A", SceneID(1))))],
            expected: scenes(
                "A=suspended A.s1=-+saved front=-",
                "A/1 stateRestorationActivity background→background ok",
                "A/1 sceneDidDisconnect background→unattached ok",
                "A - background→suspended ok"),
            tags: [.scene]),
        Row(id: "S27", title: "a reclaimed session is reconnected: same session, its payload handed back",
            setup: [.connect("A", scene), .restores("A", "{\"note\":1}"), .fire(.home),
                    .fire(.scene(.reclaim("A", SceneID(1))))],
            steps: [.fire(.scene(.reconnect("A", SceneSessionID(1))))],
            expected: eras(
                ios13: E("A=active A.s1=2:foregroundActive+saved front=A",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
                ios15: E("A=active A.s1=2:foregroundActive+saved front=A",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A/2 restoreInteractionState unattached→unattached ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok")),
            tags: [.scene]),
        Row(id: "S28", title: "focus moves to the other window",
            setup: [.connect("A", windows), .fire(.scene(.open("A", .none)))],
            steps: [.fire(.scene(.focus("A", SceneID(1))))],
            expected: scenes(
                "A=active A.s1=1:foregroundActive A.s2=2:foregroundInactive front=A",
                "A/2 sceneWillResignActive foregroundActive→foregroundInactive ok",
                "A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
            tags: [.scene]),
        Row(id: "S29", title: "a scene event for an app that does not adopt scenes is refused",
            setup: [.connect("A")], steps: [.fire(.scene(.open("A", .none)))],
            expected: bySceneSupport(
                none: E("A=active front=A",
                        "reject appDoesNotAdoptScenes"),
                optional: E("A=active front=A",
                            "reject appDoesNotAdoptScenes")),
            tags: [.scene]),
        Row(id: "S30", title: "an app that does not adopt scenes launches as under ios7, or fails under ios27",
            setup: [], steps: [.connect("A")],
            expected: bySceneSupport(
                none: E("A=active front=A",
                        "A didFinishLaunching notRunning→inactive ok",
                        "A didBecomeActive inactive→active ok"),
                optional: E("A=active front=A",
                            "A didFinishLaunching notRunning→inactive ok",
                            "A didBecomeActive inactive→active ok"),
                required: E("A=notRunning front=-",
                            "kill A sceneLifecycleRequired",
                            "A - notRunning→notRunning killed")),
            tags: [.scene, .profileEdge]),
        Row(id: "S31", title: "an app that adopts scenes is refused where there are none",
            setup: [], steps: [.connect("A", scene)],
            expected: bySceneSupport(
                none: E("A=notRunning front=-",
                        "reject scenesUnsupported"),
                optional: E("A=active A.s1=1:foregroundActive front=A",
                            "A didFinishLaunching notRunning→background ok",
                            "A configurationForConnecting background→background ok",
                            "A/1 willConnectTo unattached→unattached ok",
                            "A/1 sceneWillEnterForeground unattached→foregroundInactive ok",
                            "A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
                required: E("A=active A.s1=1:foregroundActive front=A",
                            "A didFinishLaunching notRunning→background ok",
                            "A configurationForConnecting background→background ok",
                            "A/1 willConnectTo unattached→unattached ok",
                            "A/1 sceneWillEnterForeground unattached→foregroundInactive ok",
                            "A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok")),
            tags: [.scene, .profileEdge]),
        Row(id: "S40", title: "critical pressure reclaims background scenes before it jetsams suspended apps",
            setup: [.connect("B", scene), .connect("A", sceneAudio), .restores("A", "{\"note\":1}"), .fire(.home)],
            steps: [.fire(.memoryWarning(.critical))],
            expected: scenes(
                "B=notRunning B.s1=- A=background A.s1=-+saved front=-",
                "A/1 stateRestorationActivity background→background ok",
                "A/1 sceneDidDisconnect background→unattached ok",
                "kill B jetsam",
                "B - suspended→notRunning jetsam",
                "A didReceiveMemoryWarning background→background ok"),
            tags: [.scene]),
        Row(id: "S41", title: "the system terminates a running scene app: its scene disconnects first",
            setup: [.connect("A", scene)], steps: [.fire(.terminate("A", byUser: false))],
            expected: scenes(
                "A=notRunning A.s1=- front=-",
                "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                "A/1 sceneDidDisconnect foregroundInactive→unattached ok",
                "A willTerminate background→notRunning ok"),
            tags: [.scene]),
        Row(id: "S42", title: "ios26+: a scene destroyed on user dismissal is discarded when the user swipes home",
            setup: [.connect("A", dismissible)], steps: [.fire(.home)],
            expected: eras(
                ios13: E("A=suspended A.s1=1:background front=-",
                         "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                         "A/1 sceneDidEnterBackground foregroundInactive→background ok",
                         "A - background→suspended ok"),
                ios26: E("A=suspended front=-",
                         "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                         "A/1 sceneDidDisconnect foregroundInactive→unattached ok",
                         "A didDiscardSceneSessions background→background ok",
                         "A - background→suspended ok")),
            tags: [.scene]),
        Row(id: "S43", title: "ios26+: a scene destroyed on system disconnection is discarded at a termination",
            setup: [.connect("A", ephemeral)], steps: [.fire(.terminate("A", byUser: false))],
            expected: eras(
                ios13: E("A=notRunning A.s1=- front=-",
                         "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                         "A/1 sceneDidDisconnect foregroundInactive→unattached ok",
                         "A willTerminate background→notRunning ok"),
                ios26: E("A=notRunning front=-",
                         "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok",
                         "A/1 sceneDidDisconnect foregroundInactive→unattached ok",
                         "A didDiscardSceneSessions background→background ok",
                         "A willTerminate background→notRunning ok")),
            tags: [.scene]),
        Row(id: "S44", title: "ios26+: a suspended app whose scenes are destroyed on system disconnection is killed",
            setup: [.connect("A", ephemeral), .fire(.home)],
            steps: [.fire(.terminate("A", byUser: false)), .fire(.launch("A"))],
            expected: eras(
                ios13: E("A=active A.s1=2:foregroundActive front=A",
                         "kill A system",
                         "A - suspended→notRunning killed",
                         "start A",
                         "A didFinishLaunching notRunning→background ok",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
                ios26: E("A=active A.s2=2:foregroundActive front=A",
                         "kill A system",
                         "A - suspended→notRunning killed",
                         "start A",
                         "A didFinishLaunching notRunning→background ok",
                         "A didDiscardSceneSessions background→background ok",
                         "A configurationForConnecting background→background ok",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok")),
            tags: [.scene]),
        Row(id: "S45", title: "launched behind the lock, its scene connects after the unlock, with the payload",
            setup: lockedWithPayload + [.fire(.push("A", PushNotification(contentAvailable: true, alert: false)))],
            steps: [.fire(.wake), .fire(.launch("A"))],
            expected: eras(
                ios13: E("A=active A.s1=2:foregroundActive+saved front=A",
                         "protected data available",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A protectedDataDidBecomeAvailable background→background ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
                ios15: E("A=active A.s1=2:foregroundActive+saved front=A",
                         "protected data available",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A protectedDataDidBecomeAvailable background→background ok",
                         "A/2 restoreInteractionState unattached→unattached ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok")),
            tags: [.scene]),
        Row(id: "S46", title: "an app that connects behind the lock connects its scene at the unlock, with the payload",
            setup: lockedWithPayload, steps: [.connect("A", scene), .fire(.wake)],
            expected: eras(
                ios13: E("A=active A.s1=2:foregroundActive+saved front=A",
                         "A didFinishLaunching notRunning→background ok",
                         "A - background→suspended ok",
                         "protected data available",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A protectedDataDidBecomeAvailable background→background ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
                ios15: E("A=active A.s1=2:foregroundActive+saved front=A",
                         "A didFinishLaunching notRunning→background ok",
                         "A - background→suspended ok",
                         "protected data available",
                         "A/2 willConnectTo unattached→unattached ok",
                         "A protectedDataDidBecomeAvailable background→background ok",
                         "A/2 restoreInteractionState unattached→unattached ok",
                         "A/2 sceneWillEnterForeground unattached→foregroundInactive ok",
                         "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok")),
            tags: [.scene]),
        Row(id: "S47", title: "a silent push launches a scene app: no scene connects (the default)",
            setup: endedWithPayload, steps: [.fire(.push("A", silentPush))],
            expected: scenes("A=suspended A.s1=-+saved front=-",
                             "start A", "launch A didFinishLaunching remoteNotification",
                             "A didFinishLaunching notRunning→background ok", "push A delivered",
                             "A didReceiveRemoteNotification background→background ok", "push A answered noData",
                             "A - background→suspended ok"),
            tags: [.scene]),
        Row(id: "S48", title: "with the knob, a silent push launch connects the scene into the background",
            setup: endedWithPayload, steps: [.fire(.push("A", silentPush))],
            expected: eras(
                ios13: E("A=suspended A.s1=2:background+saved front=-", lines(pushLaunch, connected, pushHandled)),
                ios15: E("A=suspended A.s1=2:background+saved front=-",
                         lines(pushLaunch, ["A/2 willConnectTo unattached→unattached ok",
                                            "A/2 restoreInteractionState unattached→unattached ok",
                                            "A/2 sceneDidEnterBackground unattached→background ok"], pushHandled))),
            tags: [.scene], knobs: DeviceKnobs(connectsSceneAtBackgroundLaunch: true)),
        Row(id: "S49", title: "with the knob, the scene a background launch connected comes to the front at a launch",
            setup: endedWithPayload + [.fire(.push("A", silentPush))], steps: [.fire(.launch("A"))],
            expected: scenes("A=active A.s1=2:foregroundActive+saved front=A",
                             "A/2 sceneWillEnterForeground background→foregroundInactive ok",
                             "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"),
            tags: [.scene], knobs: DeviceKnobs(connectsSceneAtBackgroundLaunch: true)),
        Row(id: "S50", title: "with the knob, a push launch behind the lock withholds the payload until A runs again",
            setup: lockedWithPayload, steps: [.fire(.push("A", silentPush)), .fire(.wake), .fire(.launch("A"))],
            expected: eras(
                ios13: E("A=active A.s1=2:foregroundActive+saved front=A",
                         lines(pushLaunch, connected, pushHandled, ["protected data available",
                               "A/2 sceneWillEnterForeground background→foregroundInactive ok",
                               "A protectedDataDidBecomeAvailable inactive→inactive ok",
                               "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"])),
                ios15: E("A=active A.s1=2:foregroundActive+saved front=A",
                         lines(pushLaunch, connected, pushHandled, ["protected data available",
                               "A/2 sceneWillEnterForeground background→foregroundInactive ok",
                               "A protectedDataDidBecomeAvailable inactive→inactive ok",
                               "A/2 restoreInteractionState foregroundInactive→foregroundInactive ok",
                               "A/2 sceneDidBecomeActive foregroundInactive→foregroundActive ok"]))),
            tags: [.scene], knobs: DeviceKnobs(connectsSceneAtBackgroundLaunch: true)),
        Row(id: "S51", title: "with the knob, a task launch behind the lock: the payload is handed over at the unlock",
            setup: lockedWithPayloadAndTask,
            steps: [.fire(.backgroundTask("A", identifier: "refresh", action: .run)), .fire(.wake)],
            expected: eras(
                ios13: E("A=background A.s1=2:background+saved front=- A.refresh=running",
                         lines(taskLaunch, connected, taskRun, ["protected data available",
                               "A protectedDataDidBecomeAvailable background→background ok"])),
                ios15: E("A=background A.s1=2:background+saved front=- A.refresh=running",
                         lines(taskLaunch, connected, taskRun, ["protected data available",
                               "A protectedDataDidBecomeAvailable background→background ok",
                               "A/2 restoreInteractionState background→background ok"]))),
            tags: [.scene], knobs: DeviceKnobs(connectsSceneAtBackgroundLaunch: true)),
        Row(id: "S52", title: "with the knob, a push while protected data is available hands a withheld payload over",
            setup: lockedWithPayload + [.fire(.push("A", silentPush)), .fire(.wake), .fire(.sleep)],
            steps: [.fire(.push("A", silentPush))],
            expected: eras(
                ios13: E("A=suspended A.s1=2:background+saved front=- locked", lines(resumed, pushHandled)),
                ios15: E("A=suspended A.s1=2:background+saved front=- locked",
                         lines(resumed, ["A/2 restoreInteractionState background→background ok"], pushHandled))),
            tags: [.scene], knobs: DeviceKnobs(connectsSceneAtBackgroundLaunch: true)),
    ]
}

/// S47–S49: A's session 1 kept a payload (reclaimed), A ended (a system termination, not the user's).
private let endedWithPayload: [Step] = [
    .connect("A", scene), .restores("A", "{\"note\":1}"), .fire(.home), .fire(.scene(.reclaim("A", SceneID(1)))),
    .fire(.terminate("A", byUser: false)),
]

private let silentPush = PushNotification(contentAvailable: true, alert: false)

/// S48–S52's journal pieces: a background launch by a push or a task, the scene it connects with no
/// `restoreInteractionState` (behind the lock, or before ios15), a resume, what the event's handler does.
private let pushLaunch = [
    "start A", "launch A didFinishLaunching remoteNotification", "A didFinishLaunching notRunning→background ok",
]
private let taskLaunch = [
    "start A", "launch A didFinishLaunching backgroundTask", "A didFinishLaunching notRunning→background ok",
]
private let connected = [
    "A/2 willConnectTo unattached→unattached ok", "A/2 sceneDidEnterBackground unattached→background ok",
]
private let pushHandled = [
    "push A delivered", "A didReceiveRemoteNotification background→background ok", "push A answered noData",
    "A - background→suspended ok",
]
private let resumed = ["A - suspended→background ok"]
private let taskRun = ["task A refresh launched", "A performBackgroundTask background→background ok"]

private func lines(_ pieces: [String]...) -> [String] {
    pieces.flatMap { $0 }
}

/// An expectation from journal lines already gathered.
private func E(_ situation: String, _ journal: [String]) -> Expected {
    Expected(journal: journal, situation: situation)
}

/// S51: as `lockedWithPayload`, A registering and submitting `refresh` (app refresh) at its launch.
private let lockedWithPayloadAndTask: [Step] = [
    .hold("A"), .connect("A", AppFlags(adoptsScenes: true, permittedTaskIdentifiers: ["refresh"])),
    .registerTask("A", "refresh"), .release("A"), .submitTask("A", "refresh", .appRefresh),
    .restores("A", "{\"note\":1}"), .fire(.home), .fire(.scene(.reclaim("A", SceneID(1)))),
    .fire(.terminate("A", byUser: false)), .fire(.sleep), .elapse(.seconds(10)),
]

/// S45, S46: A's session 1 kept a payload (reclaimed), A ended (a system termination, not the user's), the device
/// locked and, 10 s on, its protected data gone.
private let lockedWithPayload: [Step] = [
    .connect("A", scene), .restores("A", "{\"note\":1}"), .fire(.home), .fire(.scene(.reclaim("A", SceneID(1)))),
    .fire(.terminate("A", byUser: false)), .fire(.sleep), .elapse(.seconds(10)),
]
