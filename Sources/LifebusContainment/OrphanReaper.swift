import Glibc
public import LifebusIO

/// Reaps the children of a child subreaper that libuv does not own: orphaned descendants re-parented to it, and its
/// containment guard should that end. libuv reaps only the children it spawned (one `waitpid` per pid), so each
/// SIGCHLD the reaper lists this process's children and reaps, with `WNOHANG` and by pid, each one `owned()` does
/// not name: libuv's children are never waited for here.
///
/// Bound to its loop's thread; owns its SIGCHLD watcher (which does not keep the loop alive).
public final class OrphanReaper {
    private let owned: () -> Set<Int32>
    private var watcher: SignalWatcher?

    /// `owned` gives the pids of the children libuv spawned and has not reported ended.
    public init(loop: EventLoop, owned: @escaping () -> Set<Int32>) throws(UVError) {
        self.owned = owned
        let watcher = try SignalWatcher(loop: loop, signal: SIGCHLD, besideLibuv: true) { [weak self] _ in
            self?.reap()
        }
        watcher.keepsLoopAlive = false
        self.watcher = watcher
    }

    /// Reaps every exited child not owned by libuv; returns how many.
    @discardableResult
    public func reap() -> Int {
        let skipped = owned()
        var reaped = 0
        for pid in ProcessTable.ownChildren() where !skipped.contains(pid) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { reaped += 1 }
        }
        return reaped
    }

    /// Stops watching. Idempotent.
    public func close() {
        watcher?.close()
        watcher = nil
    }
}

extension OrphanReaper {
    /// Reaps every child of this process, libuv's too, until none is left or `within` has passed (looking every
    /// 5 ms): for a process about to exit, whose children must not be left as zombies to PID 1.
    public static func reapEveryChild(within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let children = ProcessTable.ownChildren()
            guard !children.isEmpty else { return }
            for pid in children {
                var status: Int32 = 0
                _ = waitpid(pid, &status, WNOHANG)
            }
            usleep(5_000)
        }
    }
}
