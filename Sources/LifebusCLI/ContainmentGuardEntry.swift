import LifebusContainment

/// `lifebus`'s way to `ContainmentGuard` (its executable target imports only this module): the guard a
/// `subscribe` leaves behind is `lifebus` run again. Stateless.
public enum ContainmentGuardEntry {
    /// Runs the guard and exits when the process was started as one; returns at once otherwise.
    public static func runIfRequested() {
        ContainmentGuard.runIfRequested()
    }
}
