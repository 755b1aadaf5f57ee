import LifebusLifecycle

/// Scene destruction conditions (`SceneDestructionConditions`, ios26+; `Protocol/lifecycle.md` S42–S44): a scene app
/// that declares `userInitiatedDismissal` has the sessions it shows destroyed when the user swipes home, one that
/// declares `systemDisconnection` every session when its process ends; each session is discarded instead of kept
/// for restoration and the app told at once when it still runs (at its next launch when its process is gone).
extension Device {
    /// Whether app `i` is a scene app that declared `condition`, under a profile that has destruction conditions.
    func destroys(_ i: Int, on condition: SceneDestructionConditions) -> Bool {
        configuration.profile.hasDestructionConditions && usesScenes(i)
            && apps[i].flags.destructionConditions.contains(condition)
    }

    /// `home` moves front app `f` away (S42): with `userInitiatedDismissal` and a scene shown, its shown scenes are
    /// disconnected instead of sent to the background, their sessions discarded and announced before it settles.
    mutating func planDismissal(_ f: Int) {
        guard destroys(f, on: .userInitiatedDismissal),
            apps[f].scenes.sessions.contains(where: { $0.shown && $0.scene != nil })
        else { return }
        apps[f].scenes.dismissing = true
    }

    /// The dismissed sessions of app `i` whose scene is gone are discarded (the app owed the news).
    mutating func discardDismissed(_ i: Int) {
        for k in apps[i].scenes.sessions.indices.reversed()
        where apps[i].scenes.sessions[k].shown && apps[i].scenes.sessions[k].scene == nil {
            discard(i, k)
        }
    }

    /// App `i`'s process ended (S44): with `systemDisconnection` its sessions are discarded, the app told after
    /// `didFinishLaunching` at its next launch.
    mutating func destroySessionsAtProcessEnd(_ i: Int) {
        apps[i].scenes.dismissing = false
        if destroys(i, on: .systemDisconnection) {
            discardAll(i)
        }
    }
}
