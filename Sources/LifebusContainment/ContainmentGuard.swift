import Glibc

/// The guard a `Containment` leaves behind: its owner's own program re-run as `PROGRAM --lifebus-containment-guard
/// TOKEN [FOLDER]`, blocked reading a pipe only the owner can write to. When the owner ends, however it ends
/// (SIGKILL included), the pipe reaches end of file and the guard kills every process of every run (`cgroup.kill`
/// of FOLDER; then, in subreaper mode or when the owner wrote `scanTokens` because a run had no folder of its own,
/// every process carrying a token `TOKEN.N` and their descendants), waits (at most 5 s) for the folder to empty,
/// removes it and exits: in cgroup mode within milliseconds, reading no `/proc`. After a clean stop the owner writes
/// `cleanStop` first: every run was killed already, so the guard only removes the folder once it has emptied and
/// exits at once, without reading `/proc` (the owner reaps it).
///
/// Stateless: the process is the state.
public enum ContainmentGuard {
    static let argument = "--lifebus-containment-guard"
    /// The byte an owner writes before closing the pipe when it stopped cleanly.
    static let cleanStop = UInt8(ascii: "q")
    /// The byte an owner in cgroup mode writes when a run is contained by its token only.
    static let scanTokens = UInt8(ascii: "t")

    /// Runs the guard and exits when the process was started as one; returns at once otherwise. Call first thing
    /// in `main`.
    public static func runIfRequested() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, arguments[1] == argument else { return }
        var byte: UInt8 = 0
        let folder = arguments.count > 3 ? CgroupFolder(path: arguments[3]) : nil
        var stoppedCleanly = false
        var scansTokens = folder == nil
        while true {
            let count = read(0, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if byte == cleanStop { stoppedCleanly = true }
            if byte == scanTokens { scansTokens = true }
        }
        if stoppedCleanly {
            folder?.kill()  // a straggler of a kill already made; cgroup.kill is one write
            removeOnceEmpty(folder)
        } else {
            endEverything(token: arguments[2], folder: folder, scanningTokens: scansTokens)
        }
        exit(0)
    }

    /// Kills every process of every run of the containment `token` and removes its folder: by the folder, and by
    /// token through `/proc` when `scanningTokens`.
    static func endEverything(token: String, folder: CgroupFolder?, scanningTokens: Bool) {
        folder?.kill()
        if scanningTokens {
            ProcessTable.killRepeatedly(roots: { nil }) { $0.members(tokenPrefix: token + ".") }
        }
        removeOnceEmpty(folder)
    }

    /// Removes `folder` once no process is left in it (waiting at most 5 s).
    private static func removeOnceEmpty(_ folder: CgroupFolder?) {
        guard let folder else { return }
        for _ in 0..<500 where folder.isPopulated { usleep(10_000) }
        folder.remove()
    }
}
