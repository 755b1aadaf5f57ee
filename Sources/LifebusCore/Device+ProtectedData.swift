import LifebusLifecycle

/// Data protection (`Protocol/lifecycle.md` B20–B22, B48–B51): under a profile with a `protectedDataLockDelay`, a
/// lock tells every running app that protected data will become unavailable, and it does that long after, on the
/// device's clock; the wake makes it available again and tells them. No event connects a scene while it is
/// unavailable (they are refused while locked, or launch behind the lock without one), so the scene that connects
/// after the wake is handed its session's restoration payload (`Device+Scenes.swift`, S45, S46) — unless a background
/// launch connects one behind the lock (`connectsSceneAtBackgroundLaunch`): its payload is withheld, and handed over
/// once the app runs while protected data is available, whatever it last heard (ios15+, `restoreInteractionState`,
/// after the net change it is owed), or on the scene's next callback then (before ios15) (S50–S52,
/// `Device.handOverWithheldPayloads`).
///
/// What an app hears follows the lock (`locked`), not the data: `protectedDataWillBecomeUnavailable` comes at the
/// lock, before the data goes. Each app keeps what it last heard (`AppRecord.heardProtectedDataAvailable`); one that
/// was suspended through a change hears the net change once when it runs again
/// (`DeviceConfiguration.queuesProtectedDataNotifications`), right after it leaves `suspended` (after the resume's
/// `didEnterBackground`, if it is owed one).
extension Device {
    /// The device locks (`sleep`): `protectedDataWillBecomeUnavailable` to every running app that is not
    /// suspended, after the lock's own moves; the lock timer starts.
    mutating func planProtectedDataLock() {
        guard let delay = configuration.profile.protectedDataLockDelay else {
            return
        }
        protectedDataLock = armTimer(.protectedDataLock, at: now + delay)
        scheduleProtectedData(.protectedDataLocking)
    }

    /// The device is unlocked (`wake`, `reset`): protected data is available again; with `tell`,
    /// `protectedDataDidBecomeAvailable` to every running app that is not suspended. Without (`reset`, which tells
    /// no app), every app is taken to have heard it: a fresh device owes none a notification.
    mutating func planProtectedDataUnlock(tell: Bool) {
        guard configuration.profile.protectedDataLockDelay != nil else {
            return
        }
        if !tell {
            for i in apps.indices {
                apps[i].heardProtectedDataAvailable = true
            }
        }
        cancelTimer(protectedDataLock)
        protectedDataLock = nil
        if !protectedDataAvailable {
            protectedDataAvailable = true
            out.append(.protectedData(available: true))
        }
        if tell {
            scheduleProtectedData(.protectedDataUnlocked)
        }
    }

    /// The lock timer fired: protected data is unavailable from now until the wake.
    mutating func protectedDataLocked() {
        protectedDataLock = nil
        protectedDataAvailable = false
        out.append(.protectedData(available: false))
    }

    /// Tells app `i` that protected data will become unavailable or became available, and remembers it.
    mutating func tellProtectedData(_ i: Int, available: Bool) {
        apps[i].heardProtectedDataAvailable = available
        send(
            i, available ? .protectedDataDidBecomeAvailable : .protectedDataWillBecomeUnavailable,
            to: apps[i].state)
    }

    /// App `i` left `suspended` (`resumedFromSuspension`) and its work is about to move it: when the device queues
    /// protected-data notifications and is not as the app last heard (locked against `available`, or the reverse),
    /// it is told the net change — one notification, before the event's own callbacks ("the system coalesces
    /// events and delivers a single notification (of each relevant type) that reflects the net change since your app
    /// was suspended", App Programming Guide for iOS, "Processing Queued Notifications at Wakeup Time"). `true` when
    /// told: the work steps again on the answer. The mark is cleared either way, but kept while the work is one
    /// that ends at its first answer (none of those resumes an app: the mark waits for the next work).
    mutating func deliverQueuedProtectedData(_ i: Int) -> Bool {
        switch apps[i].work {
        case nil, .memoryWarning, .enterBackground, .jetsam, .protectedDataLocking, .protectedDataUnlocked:
            return false
        case .moveTo, .launchInBackground, .terminate, .closeApp, .closeScene, .reclaimScene, .performTasks,
            .expireTasks, .deliverPushes:
            break
        }
        guard apps[i].resumedFromSuspension else {
            return false
        }
        apps[i].resumedFromSuspension = false
        let state = apps[i].state
        guard configuration.queuesProtectedDataNotifications, apps[i].process == .connected,
            state.isForeground || state == .background, apps[i].heardProtectedDataAvailable == locked
        else {
            return false
        }
        tellProtectedData(i, available: !locked)
        return true
    }

    /// `intent` for every app that can hear it, a stage after the event's own moves.
    private mutating func scheduleProtectedData(_ intent: Intent) {
        guard let stage = stageAfterPlannedWorks else {
            return
        }
        for i in apps.indices where index[apps[i].id] == i && apps[i].process == .connected {
            let state = apps[i].state
            if state.isForeground || state == .background {
                schedule(i, intent, stage: stage)
            }
        }
    }
}
