import LifebusCore
import LifebusLifecycle

/// The same expectation under every profile.
private func same(_ situation: String, _ journal: String...) -> [Profile: Expected] {
    let expected = Expected(journal: journal, situation: situation)
    return Dictionary(uniqueKeysWithValues: Profile.allCases.map { ($0, expected) })
}

/// One expectation without multitasking (`ios3`), another under every profile with it.
private func split(ios3: Expected, multitasking: Expected) -> [Profile: Expected] {
    Dictionary(uniqueKeysWithValues: Profile.allCases.map { ($0, $0.hasMultitasking ? multitasking : ios3) })
}

/// One expectation per app-delegate era: `ios3`, `ios4`, `ios7`; the scene eras (`ios13` on) drive an app that does
/// not adopt scenes as `ios7` does, so they expect `ios7`'s unless `ios13` (the 30 s background time) differs.
private func each(ios3: Expected, ios4: Expected, ios7: Expected, ios13: Expected? = nil) -> [Profile: Expected] {
    Dictionary(uniqueKeysWithValues: Profile.allCases.map { profile in
        let expected = switch profile {
        case .ios3: ios3
        case .ios4: ios4
        case .ios7: ios7
        case .ios13, .ios15, .ios17, .ios26, .ios27: ios13 ?? ios7
        }
        return (profile, expected)
    })
}

private func E(_ situation: String, _ journal: String...) -> Expected {
    Expected(journal: journal, situation: situation)
}

private let audio = AppFlags(backgroundModes: ["audio"])
private let backgroundLaunch = AppFlags(launchInBackground: true)

extension LifecycleTable {
    package static let launches: [Row] = [
        Row(id: "R40", title: "launch an app that is not running", setup: [.connect("A")], steps: [.fire(.launch("B"))],
            expected: split(
                ios3: E("A=notRunning B=active front=B", "A willResignActive active→inactive ok",
                        "A willTerminate inactive→notRunning ok", "start B",
                        "B didFinishLaunching notRunning→inactive ok", "B didBecomeActive inactive→active ok"),
                multitasking: E("A=suspended B=active front=B", "A willResignActive active→inactive ok",
                                "A didEnterBackground inactive→background ok", "A - background→suspended ok", "start B",
                                "B didFinishLaunching notRunning→inactive ok",
                                "B didBecomeActive inactive→active ok"))),
        Row(id: "R41", title: "activate a suspended app", setup: [.connect("B"), .connect("A")],
            steps: [.fire(.activate("B"))],
            expected: split(
                ios3: E("B=notRunning A=active front=A", "reject appNotRunning"),
                multitasking: E("B=active A=suspended front=B", "A willResignActive active→inactive ok",
                                "A didEnterBackground inactive→background ok", "A - background→suspended ok",
                                "B willEnterForeground suspended→inactive ok",
                                "B didBecomeActive inactive→active ok"))),
        Row(id: "R42", title: "launch an app running in the background", setup: [.connect("B", audio), .connect("A")],
            steps: [.fire(.launch("B"))],
            expected: split(
                ios3: E("B=active A=notRunning front=B", "A willResignActive active→inactive ok",
                        "A willTerminate inactive→notRunning ok", "start B",
                        "B didFinishLaunching notRunning→inactive ok", "B didBecomeActive inactive→active ok"),
                multitasking: E("B=active A=suspended front=B", "A willResignActive active→inactive ok",
                                "A didEnterBackground inactive→background ok", "A - background→suspended ok",
                                "B willEnterForeground background→inactive ok",
                                "B didBecomeActive inactive→active ok"))),
        Row(id: "R43", title: "activate an app that never connected", setup: [.connect("A")],
            steps: [.fire(.activate("B"))],
            expected: same("A=active front=A", "reject unknownApp")),
        Row(id: "R44", title: "launch while locked", setup: [.connect("A"), .fire(.sleep)],
            steps: [.fire(.launch("B"))],
            expected: each(ios3: E("A=inactive front=A locked", "reject deviceLocked"),
                           ios4: E("A=inactive front=A locked", "reject deviceLocked"),
                           ios7: E("A=suspended front=A locked", "reject deviceLocked"))),
        Row(id: "R45", title: "launch while another app is launching", setup: [.connect("A")],
            steps: [.hold("B"), .fire(.launch("B")), .fire(.launch("C")), .release("B")],
            expected: split(
                ios3: E("A=notRunning B=notRunning C=active front=C", "A willResignActive active→inactive ok",
                        "A willTerminate inactive→notRunning ok", "start B",
                        "B didFinishLaunching notRunning→inactive ok", "B didBecomeActive inactive→active ok",
                        "B willResignActive active→inactive ok", "B willTerminate inactive→notRunning ok", "start C",
                        "C didFinishLaunching notRunning→inactive ok", "C didBecomeActive inactive→active ok"),
                multitasking: E("A=suspended B=suspended C=active front=C", "A willResignActive active→inactive ok",
                                "A didEnterBackground inactive→background ok", "A - background→suspended ok", "start B",
                                "B didFinishLaunching notRunning→inactive ok", "B didBecomeActive inactive→active ok",
                                "B willResignActive active→inactive ok", "B didEnterBackground inactive→background ok",
                                "B - background→suspended ok",
                                "start C", "C didFinishLaunching notRunning→inactive ok",
                                "C didBecomeActive inactive→active ok"))),
        Row(id: "R46", title: "launch the app already in front", setup: [.connect("A")], steps: [.fire(.launch("A"))],
            expected: same("A=active front=A")),
        Row(id: "R47", title: "launch an app whose process never connects", setup: [.connect("A")],
            steps: [.noSpawn("B"), .fire(.launch("B")), .elapse(.seconds(20))],
            expected: split(
                ios3: E("A=notRunning B=notRunning front=-", "A willResignActive active→inactive ok",
                        "A willTerminate inactive→notRunning ok", "start B", "reject launchTimedOut"),
                multitasking: E("A=suspended B=notRunning front=-", "A willResignActive active→inactive ok",
                                "A didEnterBackground inactive→background ok",
                                "A - background→suspended ok", "start B", "reject launchTimedOut"))),
    ]

    package static let memory: [Row] = [
        Row(id: "R50", title: "memory warning", setup: [.connect("C", audio), .connect("B"), .connect("A")],
            steps: [.fire(.memoryWarning(.warning))],
            expected: split(
                ios3: E("C=notRunning B=notRunning A=active front=A", "A didReceiveMemoryWarning active→active ok"),
                multitasking: E("C=background B=suspended A=active front=A",
                                "A didReceiveMemoryWarning active→active ok",
                                "C didReceiveMemoryWarning background→background ok"))),
        Row(id: "R51", title: "critical memory warning", setup: [.connect("C", audio), .connect("B"), .connect("A")],
            steps: [.fire(.memoryWarning(.critical))],
            expected: split(
                ios3: E("C=notRunning B=notRunning A=active front=A", "A didReceiveMemoryWarning active→active ok"),
                multitasking: E("C=background B=notRunning A=active front=A", "kill B jetsam",
                                "B - suspended→notRunning jetsam", "A didReceiveMemoryWarning active→active ok",
                                "C didReceiveMemoryWarning background→background ok"))),
        Row(id: "R52", title: "critical memory warning kills the largest suspended app first",
            setup: [.connect("B"), .footprint("B", 1_000), .connect("D"), .footprint("D", 5_000), .connect("A")],
            steps: [.fire(.memoryWarning(.critical))],
            expected: split(
                ios3: E("B=notRunning D=notRunning A=active front=A", "A didReceiveMemoryWarning active→active ok"),
                multitasking: E("B=notRunning D=notRunning A=active front=A", "kill D jetsam",
                                "D - suspended→notRunning jetsam", "kill B jetsam", "B - suspended→notRunning jetsam",
                                "A didReceiveMemoryWarning active→active ok"))),
        Row(id: "R53", title: "critical pressure stays: background apps are terminated",
            setup: [.connect("C", audio), .connect("A")],
            steps: [.fire(.memoryWarning(.critical)), .fire(.memoryWarning(.critical))],
            expected: split(
                ios3: E("C=notRunning A=active front=A", "A didReceiveMemoryWarning active→active ok",
                        "A didReceiveMemoryWarning active→active ok"),
                multitasking: E("C=notRunning A=active front=A", "A didReceiveMemoryWarning active→active ok",
                                "C didReceiveMemoryWarning background→background ok",
                                "C willTerminate background→notRunning ok",
                                "A didReceiveMemoryWarning active→active ok"))),
        Row(id: "R54", title: "memory warning while a callback is pending", setup: [.connect("A")],
            steps: [.hold("A"), .fire(.call(.ring)), .fire(.memoryWarning(.warning)), .release("A")],
            expected: same("A=inactive front=A call=ringing", "A willResignActive active→inactive ok",
                           "A didReceiveMemoryWarning inactive→inactive ok")),
    ]

    package static let terminations: [Row] = [
        Row(id: "R60", title: "terminate a suspended app", setup: [.connect("B"), .connect("A")],
            steps: [.fire(.terminate("B", byUser: false))],
            expected: split(ios3: E("B=notRunning A=active front=A", "reject appNotRunning"),
                            multitasking: E("B=notRunning A=active front=A", "kill B system",
                                            "B - suspended→notRunning killed"))),
        Row(id: "R61", title: "terminate the front app", setup: [.connect("A")],
            steps: [.fire(.terminate("A", byUser: false))],
            expected: same("A=notRunning front=-", "A willTerminate active→notRunning ok")),
        Row(id: "R62", title: "terminate by the user", setup: [.connect("A")],
            steps: [.fire(.terminate("A", byUser: true))],
            expected: same("A=notRunning front=-", "kill A user", "A - active→notRunning killed")),
        Row(id: "R63", title: "terminate an app that is not running",
            setup: [.connect("A"), .fire(.terminate("A", byUser: false))],
            steps: [.fire(.terminate("A", byUser: false))],
            expected: same("A=notRunning front=-", "reject appNotRunning")),
        Row(id: "R64", title: "a second terminate while willTerminate runs", setup: [.connect("A")],
            steps: [.hold("A"), .fire(.terminate("A", byUser: false)), .fire(.terminate("A", byUser: true)),
                    .release("A")],
            expected: same("A=notRunning front=-", "A willTerminate active→notRunning ok", "reject appNotRunning")),
        Row(id: "R65", title: "terminate an app running in the background",
            setup: [.connect("B", audio), .connect("A")],
            steps: [.fire(.terminate("B", byUser: false))],
            expected: split(ios3: E("B=notRunning A=active front=A", "reject appNotRunning"),
                            multitasking: E("B=notRunning A=active front=A",
                                            "B willTerminate background→notRunning ok"))),
    ]

    package static let connections: [Row] = [
        Row(id: "R70", title: "an app connects: connecting is launching", setup: [], steps: [.connect("A")],
            expected: same("A=active front=A", "A didFinishLaunching notRunning→inactive ok",
                           "A didBecomeActive inactive→active ok")),
        Row(id: "R71", title: "a second app connects and comes to the front", setup: [.connect("A")],
            steps: [.connect("B")],
            expected: split(
                ios3: E("A=notRunning B=active front=B", "A willResignActive active→inactive ok",
                        "A willTerminate inactive→notRunning ok", "B didFinishLaunching notRunning→inactive ok",
                        "B didBecomeActive inactive→active ok"),
                multitasking: E("A=suspended B=active front=B", "A willResignActive active→inactive ok",
                                "A didEnterBackground inactive→background ok", "A - background→suspended ok",
                                "B didFinishLaunching notRunning→inactive ok",
                                "B didBecomeActive inactive→active ok"))),
        Row(id: "R72", title: "an app connects to launch in the background", setup: [.connect("A")],
            steps: [.connect("B", backgroundLaunch)],
            expected: split(
                ios3: E("A=notRunning B=active front=B", "A willResignActive active→inactive ok",
                        "A willTerminate inactive→notRunning ok", "B didFinishLaunching notRunning→inactive ok",
                        "B didBecomeActive inactive→active ok"),
                multitasking: E("A=active B=suspended front=A", "B didFinishLaunching notRunning→background ok",
                                "B didEnterBackground background→background ok", "B - background→suspended ok"))),
        Row(id: "R73", title: "an app id already connected", setup: [.connect("A")], steps: [.connect("A")],
            expected: same("A=active front=A", "reject alreadyConnected")),
        Row(id: "R74", title: "an app connects while locked", setup: [.fire(.sleep)], steps: [.connect("A")],
            expected: each(ios3: E("A=inactive front=A locked", "A didFinishLaunching notRunning→inactive ok"),
                           ios4: E("A=inactive front=A locked", "A didFinishLaunching notRunning→inactive ok"),
                           ios7: E("A=suspended front=A locked", "A didFinishLaunching notRunning→background ok",
                                   "A didEnterBackground background→background ok", "A - background→suspended ok"))),
    ]

    package static let failures: [Row] = [
        Row(id: "R80", title: "an app crashes mid-callback", setup: [.connect("A")],
            steps: [.hold("A"), .fire(.call(.ring)), .crash("A")],
            expected: same("A=notRunning front=- call=ringing", "A willResignActive active→notRunning crashed")),
        Row(id: "R81", title: "an app crashes while idle", setup: [.connect("A")], steps: [.crash("A")],
            expected: same("A=notRunning front=-", "A - active→notRunning crashed")),
        Row(id: "R82", title: "the watchdog kills an app that does not answer", setup: [.connect("A")],
            steps: [.hold("A"), .fire(.call(.ring)), .elapse(.seconds(10))],
            expected: same("A=notRunning front=- call=ringing", "kill A watchdog",
                           "A willResignActive active→notRunning watchdog")),
        Row(id: "R83", title: "an answer that was not asked for", setup: [.connect("A")], steps: [.bogusAnswer("A")],
            expected: same("A=active front=A", "reject unexpectedAnswer")),
        Row(id: "R84", title: "a process that lingers after willTerminate", setup: [.connect("A")],
            steps: [.linger("A"), .fire(.terminate("A", byUser: false)), .elapse(.seconds(2))],
            expected: same("A=notRunning front=-", "A willTerminate active→notRunning ok", "kill A system",
                           "A - notRunning→notRunning killed")),
    ]

    package static let backgroundTasks: [Row] = [
        Row(id: "R90", title: "a background task keeps the app running until it ends", setup: [.connect("A")],
            steps: [.beginTask("A", 1), .fire(.home), .endTask("A", 1)],
            expected: split(
                ios3: E("A=notRunning front=-", "reject backgroundTasksUnavailable",
                        "A willResignActive active→inactive ok", "A willTerminate inactive→notRunning ok",
                        "reject backgroundTasksUnavailable"),
                multitasking: E("A=suspended front=-", "A willResignActive active→inactive ok",
                                "A didEnterBackground inactive→background ok", "A - background→suspended ok"))),
        Row(id: "R91", title: "a background task never ended", setup: [.connect("A")],
            steps: [.beginTask("A", 1), .fire(.home), .elapse(.seconds(600))],
            expected: split(
                ios3: E("A=notRunning front=-", "reject backgroundTasksUnavailable",
                        "A willResignActive active→inactive ok", "A willTerminate inactive→notRunning ok"),
                multitasking: E("A=notRunning front=-", "A willResignActive active→inactive ok",
                                "A didEnterBackground inactive→background ok", "expiring A 1",
                                "kill A backgroundTaskExpired", "A - background→notRunning watchdog"))),
        Row(id: "R92", title: "a background task begun when the budget is nearly spent", setup: [.connect("A", audio)],
            steps: [.fire(.home), .elapse(.seconds(177)), .beginTask("A", 1), .elapse(.seconds(10))],
            expected: each(
                ios3: E("A=notRunning front=-", "A willResignActive active→inactive ok",
                        "A willTerminate inactive→notRunning ok", "reject backgroundTasksUnavailable"),
                ios4: E("A=background front=-", "A willResignActive active→inactive ok",
                        "A didEnterBackground inactive→background ok"),
                ios7: E("A=notRunning front=-", "A willResignActive active→inactive ok",
                        "A didEnterBackground inactive→background ok", "expiring A 1", "kill A backgroundTaskExpired",
                        "A - background→notRunning watchdog"),
                ios13: E("A=background front=-", "A willResignActive active→inactive ok",
                         "A didEnterBackground inactive→background ok", "reject backgroundTimeExpired"))),
        Row(id: "R93", title: "a suspended app begins a background task", setup: [.connect("B"), .connect("A")],
            steps: [.beginTask("B", 1)],
            expected: split(ios3: E("B=notRunning A=active front=A", "reject backgroundTasksUnavailable"),
                            multitasking: E("B=suspended A=active front=A", "reject appSuspended"))),
    ]

    package static let all: [Row] = calls + alerts + buttons + launches + memory + terminations + connections + failures
        + backgroundTasks
}
