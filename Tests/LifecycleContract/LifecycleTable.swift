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

private let exits = AppFlags(exitsOnSuspend: true)
private let audio = AppFlags(backgroundModes: ["audio"])

/// The rows of `Protocol/lifecycle.md`, grouped as the document groups them; `all` is every row.
package enum LifecycleTable {
    package static let calls: [Row] = [
        Row(id: "R01", title: "call rings while A is active", setup: [.connect("A")], steps: [.fire(.call(.ring))],
            expected: same("A=inactive front=A call=ringing", "A willResignActive active→inactive ok")),
        Row(id: "R02", title: "call rings while locked", setup: [.connect("A"), .fire(.sleep)],
            steps: [.fire(.call(.ring))],
            expected: each(ios3: E("A=inactive front=A locked call=ringing"),
                           ios4: E("A=inactive front=A locked call=ringing"),
                           ios7: E("A=suspended front=A locked call=ringing"))),
        Row(id: "R03", title: "call answered", setup: [.connect("A"), .fire(.call(.ring))],
            steps: [.fire(.call(.answer))],
            expected: split(ios3: E("A=notRunning front=- call=inProgress", "A willTerminate inactive→notRunning ok"),
                            multitasking: E("A=suspended front=- call=inProgress",
                                            "A didEnterBackground inactive→background ok",
                                            "A - background→suspended ok"))),
        Row(id: "R04", title: "call answered, A exits on suspend", setup: [.connect("A", exits), .fire(.call(.ring))],
            steps: [.fire(.call(.answer))],
            expected: same("A=notRunning front=- call=inProgress", "A willTerminate inactive→notRunning ok")),
        Row(id: "R05", title: "call declined", setup: [.connect("A"), .fire(.call(.ring))],
            steps: [.fire(.call(.decline))],
            expected: same("A=active front=A", "A didBecomeActive inactive→active ok")),
        Row(id: "R06", title: "call in progress ends: A returns",
            setup: [.connect("A"), .fire(.call(.ring)), .fire(.call(.answer))], steps: [.fire(.call(.end))],
            expected: split(ios3: E("A=active front=A", "start A", "A didFinishLaunching notRunning→inactive ok",
                                    "A didBecomeActive inactive→active ok"),
                            multitasking: E("A=active front=A", "A willEnterForeground suspended→inactive ok",
                                            "A didBecomeActive inactive→active ok"))),
        Row(id: "R07", title: "caller hangs up while ringing", setup: [.connect("A"), .fire(.call(.ring))],
            steps: [.fire(.call(.end))],
            expected: same("A=active front=A", "A didBecomeActive inactive→active ok")),
        Row(id: "R08", title: "call end without a call", setup: [.connect("A")], steps: [.fire(.call(.end))],
            expected: same("A=active front=A", "reject noCall")),
        Row(id: "R09", title: "call answer without a ringing call", setup: [.connect("A")],
            steps: [.fire(.call(.answer))],
            expected: same("A=active front=A", "reject noRingingCall")),
        Row(id: "R30", title: "SMS while a call rings", setup: [.connect("A"), .fire(.call(.ring))],
            steps: [.fire(.sms(.show))],
            expected: same("A=inactive front=A call=ringing")),
        Row(id: "R31", title: "call rings while an SMS alert is on screen", setup: [.connect("A"), .fire(.sms(.show))],
            steps: [.fire(.call(.ring))],
            expected: same("A=inactive front=A call=ringing")),
        Row(id: "R32", title: "call rings while a call is in progress",
            setup: [.connect("A"), .fire(.call(.ring)), .fire(.call(.answer))], steps: [.fire(.call(.ring))],
            expected: split(ios3: E("A=notRunning front=- call=inProgress", "reject callAlreadyActive"),
                            multitasking: E("A=suspended front=- call=inProgress", "reject callAlreadyActive"))),
        Row(id: "R33", title: "call answered while locked",
            setup: [.connect("A"), .fire(.sleep), .fire(.call(.ring))], steps: [.fire(.call(.answer))],
            expected: each(ios3: E("A=notRunning front=- locked call=inProgress",
                                   "A willTerminate inactive→notRunning ok"),
                           ios4: E("A=suspended front=- locked call=inProgress",
                                   "A didEnterBackground inactive→background ok", "A - background→suspended ok"),
                           ios7: E("A=suspended front=- locked call=inProgress"))),
        Row(id: "R34", title: "call ends while locked: A returns behind the lock",
            setup: [.connect("A"), .fire(.sleep), .fire(.call(.ring)), .fire(.call(.answer))],
            steps: [.fire(.call(.end))],
            expected: each(ios3: E("A=inactive front=A locked", "start A",
                                   "A didFinishLaunching notRunning→inactive ok"),
                           ios4: E("A=inactive front=A locked", "A willEnterForeground suspended→inactive ok"),
                           ios7: E("A=suspended front=A locked"))),
        Row(id: "R35", title: "call rings with no app in front", setup: [], steps: [.fire(.call(.ring))],
            expected: same("front=- call=ringing")),
    ]

    package static let alerts: [Row] = [
        Row(id: "R10", title: "SMS alert shows", setup: [.connect("A")], steps: [.fire(.sms(.show))],
            expected: same("A=inactive front=A alert=sms", "A willResignActive active→inactive ok")),
        Row(id: "R11", title: "SMS while locked is a lock-screen banner", setup: [.connect("A"), .fire(.sleep)],
            steps: [.fire(.sms(.show))],
            expected: each(ios3: E("A=inactive front=A locked"), ios4: E("A=inactive front=A locked"),
                           ios7: E("A=suspended front=A locked"))),
        Row(id: "R12", title: "SMS while a calendar alert is on screen",
            setup: [.connect("A"), .fire(.calendar(.show))], steps: [.fire(.sms(.show))],
            expected: same("A=inactive front=A alert=calendar")),
        Row(id: "R13", title: "SMS banner", setup: [.connect("A")], steps: [.fire(.sms(.banner))],
            expected: same("A=active front=A")),
        Row(id: "R14", title: "SMS dismissed", setup: [.connect("A"), .fire(.sms(.show))],
            steps: [.fire(.sms(.dismiss))],
            expected: same("A=active front=A", "A didBecomeActive inactive→active ok")),
        Row(id: "R15", title: "SMS reply opens Messages", setup: [.connect("A"), .fire(.sms(.show))],
            steps: [.fire(.sms(.open))],
            expected: split(ios3: E("A=notRunning front=-", "A willTerminate inactive→notRunning ok"),
                            multitasking: E("A=suspended front=-", "A didEnterBackground inactive→background ok",
                                            "A - background→suspended ok"))),
        Row(id: "R16", title: "SMS dismiss without an SMS alert", setup: [.connect("A"), .fire(.calendar(.show))],
            steps: [.fire(.sms(.dismiss))],
            expected: same("A=inactive front=A alert=calendar", "reject noSuchAlert")),
        Row(id: "R17", title: "calendar alert shows", setup: [.connect("A")], steps: [.fire(.calendar(.show))],
            expected: same("A=inactive front=A alert=calendar", "A willResignActive active→inactive ok")),
        Row(id: "R18", title: "calendar alert dismissed", setup: [.connect("A"), .fire(.calendar(.show))],
            steps: [.fire(.calendar(.dismiss))],
            expected: same("A=active front=A", "A didBecomeActive inactive→active ok")),
        Row(id: "R19", title: "calendar view opens Calendar", setup: [.connect("A"), .fire(.calendar(.show))],
            steps: [.fire(.calendar(.open))],
            expected: split(ios3: E("A=notRunning front=-", "A willTerminate inactive→notRunning ok"),
                            multitasking: E("A=suspended front=-", "A didEnterBackground inactive→background ok",
                                            "A - background→suspended ok"))),
    ]

    package static let buttons: [Row] = [
        Row(id: "R20", title: "sleep locks the device", setup: [.connect("A")], steps: [.fire(.sleep)],
            expected: each(ios3: E("A=inactive front=A locked", "A willResignActive active→inactive ok"),
                           ios4: E("A=inactive front=A locked", "A willResignActive active→inactive ok"),
                           ios7: E("A=suspended front=A locked", "A willResignActive active→inactive ok",
                                   "A didEnterBackground inactive→background ok", "A - background→suspended ok"))),
        Row(id: "R21", title: "sleep, A exits on suspend", setup: [.connect("A", exits)], steps: [.fire(.sleep)],
            expected: each(ios3: E("A=inactive front=A locked", "A willResignActive active→inactive ok"),
                           ios4: E("A=inactive front=A locked", "A willResignActive active→inactive ok"),
                           ios7: E("A=inactive front=A locked", "A willResignActive active→inactive ok"),
                           ios13: E("A=inactive front=A locked", "A willResignActive active→inactive ok",
                                    "A protectedDataWillBecomeUnavailable inactive→inactive ok"))),
        Row(id: "R22", title: "sleep while locked", setup: [.connect("A"), .fire(.sleep)], steps: [.fire(.sleep)],
            expected: each(ios3: E("A=inactive front=A locked"), ios4: E("A=inactive front=A locked"),
                           ios7: E("A=suspended front=A locked"))),
        Row(id: "R23", title: "wake unlocks the device", setup: [.connect("A"), .fire(.sleep)], steps: [.fire(.wake)],
            expected: each(ios3: E("A=active front=A", "A didBecomeActive inactive→active ok"),
                           ios4: E("A=active front=A", "A didBecomeActive inactive→active ok"),
                           ios7: E("A=active front=A", "A willEnterForeground suspended→inactive ok",
                                   "A didBecomeActive inactive→active ok"))),
        Row(id: "R24", title: "wake without a prior sleep", setup: [.connect("A")], steps: [.fire(.wake)],
            expected: same("A=active front=A")),
        Row(id: "R25", title: "sleep and wake with no app in front", setup: [], steps: [.fire(.sleep), .fire(.wake)],
            expected: same("front=-")),
        Row(id: "R26", title: "home", setup: [.connect("A")], steps: [.fire(.home)],
            expected: split(ios3: E("A=notRunning front=-", "A willResignActive active→inactive ok",
                                    "A willTerminate inactive→notRunning ok"),
                            multitasking: E("A=suspended front=-", "A willResignActive active→inactive ok",
                                            "A didEnterBackground inactive→background ok",
                                            "A - background→suspended ok"))),
        Row(id: "R27", title: "home, A exits on suspend", setup: [.connect("A", exits)], steps: [.fire(.home)],
            expected: same("A=notRunning front=-", "A willResignActive active→inactive ok",
                           "A willTerminate inactive→notRunning ok")),
        Row(id: "R28", title: "home with no app in front", setup: [.connect("A"), .fire(.home)], steps: [.fire(.home)],
            expected: split(ios3: E("A=notRunning front=-"), multitasking: E("A=suspended front=-"))),
        Row(id: "R29", title: "home, A has a background mode", setup: [.connect("A", audio)], steps: [.fire(.home)],
            expected: split(ios3: E("A=notRunning front=-", "A willResignActive active→inactive ok",
                                    "A willTerminate inactive→notRunning ok"),
                            multitasking: E("A=background front=-", "A willResignActive active→inactive ok",
                                            "A didEnterBackground inactive→background ok"))),
    ]
}
