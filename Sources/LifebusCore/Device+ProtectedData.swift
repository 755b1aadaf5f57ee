import LifebusLifecycle

/// Data protection (`Protocol/lifecycle.md` B20–B23): under a profile with a `protectedDataLockDelay`, a lock tells
/// every running app that protected data will become unavailable, and it does that long after, on the device's
/// clock; the wake makes it available again and tells them. While it is unavailable a connecting scene is not
/// handed its session's restoration payload (`Device+Scenes.swift`).
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
    /// `protectedDataDidBecomeAvailable` to every running app that is not suspended.
    mutating func planProtectedDataUnlock(tell: Bool) {
        guard configuration.profile.protectedDataLockDelay != nil else {
            return
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
