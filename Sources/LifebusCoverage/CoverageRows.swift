import LifebusLifecycle
import LifebusProtocol

// Each set of profiles is read off `Profile`'s own properties, never listed: a new profile falls where its
// properties put it. An app that does not adopt scenes reads the R rows from ios13 as under ios7 (lifecycle.md).
private let every: Set<Profile> = Set(Profile.allCases)
private let multitasking = Set(Profile.allCases.filter(\.hasMultitasking))
/// Where a lock only resigns the front app (ios3, ios4): from ios7 it goes to the background.
private let lockOnlyResigns = Set(Profile.allCases.filter { !$0.lockSendsToBackground })
private let lockSendsToBackground = Set(Profile.allCases.filter(\.lockSendsToBackground))
private let rejected = "a rejected event: rejections are answered, not journaled"
private let movesNobody = "it moves no app, so it leaves no record"

private func J(_ profiles: Set<Profile> = every, _ matches: @escaping @Sendable (Observation) -> Bool)
    -> CoverageRow.Evidence
{
    .journal(profiles: profiles, matches: matches)
}

/// The rows of `Protocol/lifecycle.md`, in the document's order (the scene rows, `sceneRows`, then the background
/// rows, `backgroundRows`, last), with what in a journal shows each.
/// A record's row is named by the event that caused it (its cause label), the callback, the states before and
/// after, the outcome, the run's profile and the other transitions of the same event.
extension CoverageRow {
    public static let all: [CoverageRow] = calls + alerts + buttons + launches + memory + terminations + connections
        + failures + backgroundTasks + sceneRows + backgroundRows

    static let calls: [CoverageRow] = [
        CoverageRow("R01", "A active → `call`", J { $0.event == .call(.ring) && $0.resigned }),
        CoverageRow("R02", "locked → `call`", .notInJournal(movesNobody)),
        CoverageRow("R03", "call ringing → `call --answer`", J { $0.event == .call(.answer) && $0.left }),
        CoverageRow("R04", "as R03, A `exitsOnSuspend`",
                    J(multitasking) { $0.event == .call(.answer) && $0.moved(.willTerminate, from: [.inactive]) }),
        CoverageRow("R05", "call ringing → `call --decline`",
                    J { $0.event == .call(.decline) && $0.moved(.didBecomeActive, from: [.inactive]) }),
        CoverageRow("R06", "call in progress → `call --end`",
                    J { $0.event == .call(.end) && $0.returned && $0.appCallbacks.contains(.didBecomeActive) }),
        CoverageRow("R07", "call ringing → `call --end` (caller hangs up)",
                    J { $0.event == .call(.end) && $0.moved(.didBecomeActive, from: [.inactive])
                        && !$0.appCallbacks.contains(.willEnterForeground)
                        && !$0.appCallbacks.contains(.didFinishLaunching) }),
        CoverageRow("R08", "no call → `call --end`", .notInJournal(rejected)),
        CoverageRow("R09", "nothing ringing → `call --answer` / `--decline`", .notInJournal(rejected)),
        CoverageRow("R30", "call ringing → `sms`", .notInJournal(movesNobody)),
        CoverageRow("R31", "SMS alert on screen → `call`", .notInJournal(movesNobody)),
        CoverageRow("R32", "call in progress → `call`", .notInJournal(rejected)),
        CoverageRow("R33", "locked, call ringing → `call --answer`",
                    .notInJournal("its records are R03's: the journal does not say the device was locked")),
        CoverageRow("R34", "locked, call in progress → `call --end`",
                    J(lockOnlyResigns) { $0.event == .call(.end) && $0.returned
                        && !$0.appCallbacks.contains(.didBecomeActive) }),
        CoverageRow("R35", "no front app → `call`", .notInJournal(movesNobody)),
    ]

    static let alerts: [CoverageRow] = [
        CoverageRow("R10", "A active → `sms`", J { $0.event == .sms(.show) && $0.resigned }),
        CoverageRow("R11", "locked → `sms`", .notInJournal(movesNobody)),
        CoverageRow("R12", "calendar alert on screen → `sms`", .notInJournal(movesNobody)),
        CoverageRow("R13", "→ `sms --banner`", .notInJournal(movesNobody)),
        CoverageRow("R14", "SMS alert → `sms --dismiss`",
                    J { $0.event == .sms(.dismiss) && $0.moved(.didBecomeActive, from: [.inactive]) }),
        CoverageRow("R15", "SMS alert → `sms --reply`", J { $0.event == .sms(.open) && $0.left }),
        CoverageRow("R16", "no SMS alert → `sms --dismiss` / `--reply`", .notInJournal(rejected)),
        CoverageRow("R17", "A active → `calendar`", J { $0.event == .calendar(.show) && $0.resigned }),
        CoverageRow("R18", "calendar alert → `calendar --dismiss`",
                    J { $0.event == .calendar(.dismiss) && $0.moved(.didBecomeActive, from: [.inactive]) }),
        CoverageRow("R19", "calendar alert → `calendar --view`", J { $0.event == .calendar(.open) && $0.left }),
    ]

    static let buttons: [CoverageRow] = [
        CoverageRow("R20", "A active → `sleep`",
                    J { $0.event == .sleep && $0.resigned
                        && ($0.profile?.lockSendsToBackground != true
                            || $0.appCallbacks.contains(.didEnterBackground)) }),
        CoverageRow("R21", "A `exitsOnSuspend` → `sleep`",
                    J(lockSendsToBackground) {
                        $0.event == .sleep && $0.resigned && $0.appCallbacks == [.willResignActive]
                    }),
        CoverageRow("R22", "locked → `sleep`", .notInJournal(movesNobody)),
        CoverageRow("R23", "locked → `wake`",
                    J { $0.event == .wake && ($0.moved(.didBecomeActive) || $0.moved(.willEnterForeground)) }),
        CoverageRow("R24", "not locked → `wake` (no prior sleep)", .notInJournal(movesNobody)),
        CoverageRow("R25", "no front app → `sleep`, `wake`", .notInJournal(movesNobody)),
        CoverageRow("R26", "A active → `home`", J { $0.event == .home && $0.resigned }),
        CoverageRow("R27", "A `exitsOnSuspend` → `home`",
                    J(multitasking) { $0.event == .home && $0.moved(.willTerminate, from: [.inactive]) }),
        CoverageRow("R28", "no front app → `home`", .notInJournal(movesNobody)),
        CoverageRow("R29", "A has a continuous background mode → `home`",
                    J(multitasking) { $0.event == .home && $0.moved(.didEnterBackground) && !$0.appSuspended }),
    ]

    static let launches: [CoverageRow] = [
        CoverageRow("R40", "B not running → `launch B`",
                    J { $0.byLaunch && $0.moved(.didFinishLaunching, from: [.notRunning]) }),
        CoverageRow("R41", "B suspended → `activate B`",
                    J(multitasking) { $0.byActivate && $0.moved(.willEnterForeground) }),
        CoverageRow("R42", "B running in the background → `launch B`",
                    J(multitasking) { $0.byLaunch && $0.moved(.willEnterForeground) }),
        CoverageRow("R43", "B never connected → `activate B`", .notInJournal(rejected)),
        CoverageRow("R44", "locked → `launch` / `activate`", .notInJournal(rejected)),
        CoverageRow("R45", "B launching → `launch C`",
                    .notInJournal("its records are two R40s: the journal does not say the second event waited")),
        CoverageRow("R46", "A in front → `launch A`", .notInJournal(movesNobody)),
        CoverageRow("R47", "B's process never connects", .notInJournal(rejected)),
        CoverageRow("R140",
                    "B installed (`lifebusd --apps`, `lifebus install`), not running → `launch B` or `activate B`",
                    J { $0.processEvent == .started }),
        CoverageRow("R141", "B installed, its spawn fails (executable gone) or its process ends before it connects "
                        + "→ `launch B`",
                    J { $0.processEvent == .launchFailed }),
        CoverageRow("R143", "B installed and suspended, sampled resident memory at critical (`--device-memory`)",
                    J(multitasking) { !$0.hasCause && $0.moved(nil, from: [.suspended]) && $0.ended(.jetsam) }),
        CoverageRow("R144", "B installed with a `memoryLimit`, its sampled resident memory over it "
                        + "(with `--device-memory`)",
                    J { !$0.hasCause && $0.moved(nil, from: [.active, .inactive, .background]) && $0.ended(.jetsam) }),
        CoverageRow("R142", "the broker stops with B spawned and running",
                    J { $0.transition?.cause?.event == EventCause.shutdownLabel
                        && ($0.moved(.willTerminate) || $0.ended(.killed)) }),
    ]

    static let memory: [CoverageRow] = [
        CoverageRow("R50", "A active, B suspended, C background (audio) → `memory-warning`",
                    J { $0.event == .memoryWarning(.warning) && $0.moved(.didReceiveMemoryWarning) }),
        CoverageRow("R51", "same → `memory-warning --level critical`",
                    J { $0.event == .memoryWarning(.critical)
                        && ($0.moved(.didReceiveMemoryWarning) || $0.ended(.jetsam)) }),
        CoverageRow("R52", "several suspended apps → critical",
                    J(multitasking) { $0.event == .memoryWarning(.critical) && $0.ended(.jetsam)
                        && $0.sameEvent.filter { $0.outcome == .jetsam }.count > 1 }),
        CoverageRow("R53", "a second critical warning within the pressure window",
                    J(multitasking) { $0.event == .memoryWarning(.critical)
                        && $0.moved(.willTerminate, from: [.background]) }),
        CoverageRow("R54", "a callback is running → `memory-warning`",
                    .notInJournal("its records are R50's: the journal does not say the warning waited")),
    ]

    static let terminations: [CoverageRow] = [
        CoverageRow("R60", "B suspended → `terminate B`",
                    J(multitasking) { $0.byTerminate(byUser: false) && $0.moved(nil, from: [.suspended]) }),
        CoverageRow("R61", "A running → `terminate A`",
                    J { $0.byTerminate(byUser: false) && $0.moved(.willTerminate, from: [.active, .inactive]) }),
        CoverageRow("R62", "→ `terminate A --by-user`", J { $0.byTerminate(byUser: true) && $0.ended(.killed) }),
        CoverageRow("R63", "A not running → `terminate A`", .notInJournal(rejected)),
        CoverageRow("R64", "`willTerminate` running → a second `terminate` (by user or not)",
                    .notInJournal(rejected)),
        CoverageRow("R65", "B running in the background → `terminate B`",
                    J(multitasking) { $0.byTerminate(byUser: false) && $0.moved(.willTerminate, from: [.background]) }),
    ]

    static let connections: [CoverageRow] = [
        CoverageRow("R70", "A connects",
                    J { !$0.hasCause && $0.moved(.didFinishLaunching, from: [.notRunning], to: .inactive) }),
        CoverageRow("R71", "A in front, B connects", J { !$0.hasCause && $0.resigned }),
        CoverageRow("R72", "B connects with `launchInBackground`",
                    J(multitasking) { !$0.hasCause && $0.moved(.didFinishLaunching, to: .background) }),
        CoverageRow("R73", "an app id already connected connects", .notInJournal(rejected)),
        CoverageRow("R74", "locked, A connects",
                    .notInJournal("its records are R70's (ios7: R72's): the journal does not say the device was "
                        + "locked")),
    ]

    static let failures: [CoverageRow] = [
        CoverageRow("R80", "the app's process exits / disconnects while a callback runs",
                    J { $0.transition?.callback != nil && ($0.ended(.crashed) || $0.ended(.disconnected)) }),
        CoverageRow("R81", "the app's process exits / disconnects while idle",
                    J { $0.moved(nil) && ($0.ended(.crashed) || $0.ended(.disconnected)) }),
        CoverageRow("R82", "a callback not answered within its budget",
                    J { $0.transition?.callback != nil && $0.ended(.watchdog) }),
        CoverageRow("R83", "an app answers a callback it was not sent (or answers twice)", .notInJournal(rejected)),
        CoverageRow("R84", "a process still there after the exit grace following `willTerminate`",
                    // Not S30's kill of an app without scenes under ios27, which its launch caused.
                    J { $0.moved(nil, from: [.notRunning], to: .notRunning) && $0.ended(.killed) && !$0.byLaunch }),
    ]

    static let backgroundTasks: [CoverageRow] = [
        CoverageRow("R90", "a task open when the app leaves the front; the task ends",
                    J(multitasking) { !$0.hasCause && $0.moved(nil, from: [.background], to: .suspended)
                        && $0.previous?.cause != nil }),
        CoverageRow("R91", "a task never ended",
                    J(multitasking) { $0.moved(nil, from: [.background], to: .notRunning) && $0.ended(.watchdog) }),
        CoverageRow("R92", "a task begun with less than the warning time left",
                    .notInJournal("its records are R91's: the journal does not say when the task began")),
        CoverageRow("R93", "a suspended app begins a task", .notInJournal(rejected)),
    ]
}

extension Observation {
    /// An app returning to the front from where a call put it: `willEnterForeground`, or relaunched
    /// (`didFinishLaunching`) where it had been terminated.
    var returned: Bool {
        moved(.willEnterForeground, to: .inactive) || moved(.didFinishLaunching, from: [.notRunning], to: .inactive)
    }
}
