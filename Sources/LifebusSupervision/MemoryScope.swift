/// Which processes one app's memory figure covers: what iOS's jetsam counts of an app, its own footprint.
///
/// A plain value; the meter (`MemoryMeter`) reads it. `.cgroup` is exact and cheap when the cgroup v2 directory has
/// the memory controller (one `memory.current` read); the other cases sum each process's PSS (`smaps_rollup`), in
/// which a page shared by n processes counts 1/n in each, so shared pages are counted once over the sum.
public enum MemoryScope: Sendable, Hashable {
    /// The processes of a cgroup v2 directory (an absolute path under `/sys/fs/cgroup`): its `memory.current`
    /// when present, else the PSS sum over its `cgroup.procs`.
    case cgroup(path: String)
    /// Every live process whose process group is this id (a spawned app leads its group).
    case processGroup(Int32)
    /// One process (an app that connected on its own).
    case process(Int32)

    /// The pid the scope names directly: counted whether or not a `/proc` listing has seen it yet.
    var anchor: Int32? {
        switch self {
        case .cgroup: nil
        case .processGroup(let group): group
        case .process(let pid): pid
        }
    }
}
