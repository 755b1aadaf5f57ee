import LifebusLifecycle
import LifebusProtocol

private let tasks = Set(Profile.allCases.filter(\.hasBackgroundTasks))
private let continued = Set(Profile.allCases.filter(\.hasContinuedProcessing))
private let dataProtection = Set(Profile.allCases.filter { $0.protectedDataLockDelay != nil })
private let queuedProtectedData = Set(Profile.allCases.filter(\.queuesProtectedDataNotifications))
private let pushes = Set(Profile.allCases.filter { $0.silentPushBudget != nil })
private let everyProfile = Set(Profile.allCases)
private let launchTaps = Set(Profile.allCases.filter(\.tapReachesDelegateAtLaunch))
private let presents = Set(Profile.allCases.filter(\.asksDelegateToPresent))
private let rejected = "a rejected event: rejections are answered, not journaled"

private func J(_ profiles: Set<Profile>, _ matches: @escaping @Sendable (Observation) -> Bool) -> CoverageRow.Evidence {
    .journal(profiles: profiles, matches: matches)
}

/// The background rows of `Protocol/lifecycle.md` (B01…, "Background execution and data protection"), in the
/// document's order, with what in a journal shows each: a task or push record's step, a background launch or
/// resume caused by `bgtask`, a silent `push` (or the clock), the protected-data and push callbacks. Each under the
/// profiles that have what it needs (`BGTaskScheduler`, continued processing, data protection, a silent push's
/// budget); app-delegate and scene apps alike reach them (the callbacks are the app delegate's).
extension CoverageRow {
    static let backgroundRows: [CoverageRow] = [
        CoverageRow("B01", "A launching (held in `didFinishLaunching`) registers `refresh` (permitted)",
                    .notInJournal("a registration is answered, not journaled")),
        CoverageRow("B02", "A active (launch finished) registers `refresh`", .notInJournal(rejected)),
        CoverageRow("B03", "A launching registers `sync`, not in its permitted identifiers", .notInJournal(rejected)),
        CoverageRow("B04", "A not running, `refresh` submitted → `bgtask A` for `refresh`",
                    J(tasks) { $0.byBackgroundTask
                        && $0.moved(.didFinishLaunching, from: [.notRunning], to: .background) }),
        CoverageRow("B05", "A suspended, `refresh` submitted → `bgtask A` for `refresh`, then A completes it",
                    J(tasks) { $0.byBackgroundTask && $0.moved(nil, from: [.suspended], to: .background) }),
        CoverageRow("B06", "A suspended, `refresh` submitted due in 900 s → the clock passes 900 s",
                    J(tasks) { !$0.hasCause && $0.moved(.performBackgroundTask) }),
        CoverageRow("B07", "A's `refresh` running, never completed → 25 s, 30 s",
                    J(tasks) { $0.task?.event == .expired }),
        CoverageRow("B08", "as B07, A completes it (`false`) from its expiration handler",
                    J(tasks) { $0.task?.event == .completed && $0.task?.kind == .appRefresh && $0.taskExpiring }),
        CoverageRow("B09", "A locked in the background with `clean` (processing) running → `wake`, A completes it",
                    J(tasks) { $0.task?.event == .expiring && $0.task?.kind == .processing }),
        CoverageRow("B10", "A active submits `export` (continued processing) → `home` → `bgtask --cancel A` for "
                        + "`export`, A completes it",
                    J(continued) { $0.task?.event == .expiring && $0.task?.kind == .continuedProcessing }),
        CoverageRow("B11", "A (audio) in the background submits `export` (continued processing)",
                    .notInJournal(rejected)),
        CoverageRow("B12", "A active with `export` running → `terminate A --by-user`",
                    J(continued) { $0.task?.event == .cancelled && $0.task?.kind == .continuedProcessing }),
        CoverageRow("B13", "A active, nothing submitted → `bgtask A` for `refresh`", .notInJournal(rejected)),
        CoverageRow("B14", "A (audio) in the background with `refresh` running → `terminate A` (the system)",
                    J(tasks) { $0.task?.event == .cancelled && $0.task?.kind == .appRefresh }),
        CoverageRow("B15", "A suspended, `clean` (processing) due in 60 s, device unlocked → 60 s, `sleep`",
                    J(tasks) { $0.event == .sleep && $0.moved(.performBackgroundTask) }),
        CoverageRow("B16", "A suspended, `clean` due in 60 s requiring external power and the network, `power "
                        + "battery`, `network offline`, `sleep` → 60 s",
                    .notInJournal("a waiting task is shown by status, not journaled")),
        CoverageRow("B17", "as B16 after 60 s → `power external`, `network online`",
                    J(tasks) { $0.byDeviceConditions && $0.moved(.performBackgroundTask) }),
        CoverageRow("B18", "A locked in the background with `clean` (requiring external power) running → `power "
                        + "battery`, A completes it",
                    J(tasks) { $0.byDeviceConditions && $0.moved(.backgroundTaskWillExpire) }),
        CoverageRow("B19", "A active, `clean` submitted requiring power and network, `power battery`, `network "
                        + "offline` → `bgtask A` for `clean`",
                    J(tasks) { $0.byBackgroundTask && $0.moved(.performBackgroundTask, from: [.active]) }),
        CoverageRow("B20", "A (audio) active → `sleep`, 9 s, 1 s",
                    J(dataProtection) { $0.event == .sleep && $0.moved(.protectedDataWillBecomeUnavailable) }),
        CoverageRow("B21", "as B20 after 10 s → `wake`",
                    J(dataProtection) { $0.moved(.protectedDataDidBecomeAvailable) && $0.protectedDataLost }),
        CoverageRow("B22", "A (audio) locked 5 s → `wake`, 10 s",
                    J(dataProtection) { $0.moved(.protectedDataDidBecomeAvailable) && !$0.protectedDataLost }),
        CoverageRow("B30", "A suspended → `push A`",
                    J(pushes) { $0.bySilentPush && $0.moved(nil, from: [.suspended], to: .background) }),
        CoverageRow("B31", "A not running → `push A`",
                    J(pushes) { $0.bySilentPush
                        && $0.moved(.didFinishLaunching, from: [.notRunning], to: .background) }),
        CoverageRow("B32", "A suspended, 3 pushes delivered this hour → `push A`, an hour passes",
                    J(pushes) { $0.push?.event == .deferred }),
        CoverageRow("B33", "A suspended → `push --alert A`",
                    .notInJournal("its `delivered` record is a silent push's too: the journal does not say the "
                        + "notification was shown")),
        CoverageRow("B34", "A (audio) in the background, holding its answers → `push A`, 30 s",
                    J(pushes) { $0.moved(.didReceiveRemoteNotification) && $0.ended(.watchdog) }),
        CoverageRow("B35", "A not running → `push --tap A`",
                    J(everyProfile) { $0.byTap && $0.moved(.didFinishLaunching, from: [.notRunning]) }),
        CoverageRow("B36", "A suspended → `push --tap A`",
                    J(everyProfile) { $0.byTap && $0.moved(.didReceiveNotificationResponse)
                        && $0.sameEventMoved(.willEnterForeground) }),
        CoverageRow("B37", "A suspended → `launch A --url U`",
                    J(everyProfile) { $0.byLaunch && $0.moved(.openURL) && $0.sameEventMoved(.willEnterForeground) }),
        CoverageRow("B38", "A active → `launch A --url U`",
                    J(everyProfile) { $0.byLaunch && $0.moved(.openURL) && !$0.sameEventMoved(.willEnterForeground)
                        && !$0.sameEventMoved(.didFinishLaunching) }),
        CoverageRow("B39", "A not running → `launch A --url U`",
                    J(everyProfile) { $0.byLaunch && $0.moved(.openURL) && $0.sameEventMoved(.didFinishLaunching) }),
        CoverageRow("B40", "scene app A suspended → `push --tap A`",
                    J(everyProfile) { $0.byTap && $0.moved(.didReceiveNotificationResponse)
                        && $0.sameEventMoved(.sceneWillEnterForeground) }),
        CoverageRow("B41", "scene app A not running → `push --tap A`",
                    J(launchTaps) { $0.byTap && $0.moved(.didReceiveNotificationResponse)
                        && $0.sameEventMoved(.willConnectTo) }),
        CoverageRow("B42", "A force-quit (`terminate A --by-user`) → `push A`",
                    J(pushes) { $0.push?.event == .discarded }),
        CoverageRow("B43", "A force-quit, then launched by the user → `terminate A` (the system), `push A`",
                    .notInJournal("its background launch is B31's: the journal does not tie it to the force-quit "
                        + "and the launch before")),
        CoverageRow("B44", "A suspended, 3 pushes delivered this hour, a fourth held → `push A`, `terminate A "
                        + "--by-user`",
                    .notInJournal("its discards read as B42's: a push record names no event, so the journal does not "
                        + "tell a held push's discard from a force-quit app's")),
        CoverageRow("B45", "A suspended, holding a push over the rate limit → `launch A`",
                    J(pushes) { $0.byLaunch && $0.moved(.didReceiveRemoteNotification, from: [.active]) }),
        CoverageRow("B46", "A active with `refresh` (app refresh) pending → A submits `refresh` again, then `feed` "
                        + "(app refresh)", .notInJournal(rejected)),
        CoverageRow("B47", "A active with 10 processing tasks pending (`p0`…`p9`) and `refresh` running → A submits "
                        + "`p10` (processing), then `refresh` (app refresh)", .notInJournal(rejected)),
        CoverageRow("B48", "A suspended, the device locked → `push A`",
                    J(queuedProtectedData) { $0.bySilentPush && $0.moved(.protectedDataWillBecomeUnavailable) }),
        CoverageRow("B49", "A suspended → `sleep`, 10 s, `wake`, then `push A`",
                    .notInJournal("no net change, no notification: a journal does not show one not sent")),
        CoverageRow("B50", "A told at B48, suspended again, 10 s → `wake`, `launch A`",
                    J(queuedProtectedData) { $0.byLaunch
                        && $0.moved(.protectedDataDidBecomeAvailable, from: [.inactive]) }),
        CoverageRow("B51", "as B50 → `wake`, `push A`",
                    J(queuedProtectedData) { $0.bySilentPush && $0.moved(.protectedDataDidBecomeAvailable) }),
        CoverageRow("B60", "A active → `push --alert A`",
                    J(presents) { $0.moved(.willPresentNotification, from: [.active]) }),
        CoverageRow("B61", "scene app A active → `push --alert A`",
                    J(presents) { $0.moved(.willPresentNotification, from: [.active]) }),
        CoverageRow("B62", "A (audio) in the background → `push --alert A`",
                    .notInJournal("its `delivered` record is B33's: the journal does not say the app was running in "
                        + "the background")),
        CoverageRow("B63", "A inactive (a call ringing) → `push --alert A`",
                    J(presents) { $0.moved(.willPresentNotification, from: [.inactive]) }),
        CoverageRow("B64", "A force-quit (`terminate A --by-user`) with `refresh` (app refresh) submitted due in "
                        + "900 s → the clock passes 900 s, `bgtask A` for `refresh`",
                    J(tasks) { $0.task?.event == .deferred }),
        CoverageRow("B65", "A force-quit with `clean` (processing) submitted → `bgtask A` for `clean`",
                    .notInJournal("its background launch is B04's: the journal does not tie it to the force-quit "
                        + "before")),
        CoverageRow("B66", "A force-quit with `refresh` submitted, then launched by the user → `terminate A` (the "
                        + "system), `bgtask A` for `refresh`",
                    .notInJournal("its background launch is B04's: the journal does not tie it to the force-quit "
                        + "and the launch before")),
    ]
}

/// The words the background rows are written in.
extension Observation {
    /// The task record, when the record is one.
    var task: BackgroundTaskRecord? {
        if case .task(let record) = record { return record }
        return nil
    }

    /// The push record, when the record is one.
    var push: PushDeliveryRecord? {
        if case .push(let record) = record { return record }
        return nil
    }

    /// Caused by a silent (content-available) `push` to any app.
    var bySilentPush: Bool {
        if case .push(_, let notification) = event { return notification.contentAvailable }
        return false
    }

    /// Caused by a `bgtask` event (`run`) of any app.
    var byBackgroundTask: Bool {
        if case .backgroundTask(_, _, .run) = event { return true }
        return false
    }

    /// Whether a tapped notification caused it (`fire push --tap`).
    var byTap: Bool {
        if case .push(_, let notification)? = event { return notification.tapped }
        return false
    }

    /// Whether the same event sent `callback` to an app (this observation's or another).
    func sameEventMoved(_ callback: LifecycleCallback) -> Bool {
        sameEvent.contains { $0.callback == callback }
    }

    /// Whether a change of the device's conditions caused it (`fire power`, `fire network`).
    var byDeviceConditions: Bool {
        switch event {
        case .power?, .network?: true
        default: false
        }
    }
}
