/// Measures apps' memory round after round, as jetsam does: each app's own footprint (`MemoryScope`), for a
/// bounded cost per round whatever the number of processes.
///
/// Owns what it knows of the machine's processes (pid, `/proc` folder inode, start time, group, last figure and
/// the `stat` counters it was read at) and the reused read buffer. Not thread-safe: one round at a time (the
/// sampler runs at most one pass). Holds at most one entry per process of the machine.
///
/// A round reads:
/// - each cgroup scope's `memory.current` (exact, every round) or, without one, its `cgroup.procs` (every round);
/// - at the start of a cycle (below), and when a process group is asked for the first time, one `/proc` listing
///   (no file read): a process folder whose inode is known is the process already known, so only processes born
///   since the last listing have their `stat` read (and their PSS, when they belong to an asked-for scope);
/// - the `stat` of known member processes (a visit), least recently visited first, plus every member never read
///   yet. A visited process's PSS (`smaps_rollup`, through the same `/proc/PID` descriptor as its checked `stat`)
///   is read again when its `stat` shows its own memory moved (page faults or resident pages changed since its
///   last figure) and at least every `figureEvery`th visit (4 by default): PSS also moves when processes sharing
///   its pages come or go, which its `stat` does not show. The visits of a round stop once they cost `readBudget`
///   (192 by default): a `stat` costs 1, a PSS 2 more (it costs the kernel about twice a `stat`), so a round
///   makes `readBudget` / 3 visits when every process's memory moves, `readBudget` / 1.5 when they are steady.
///   A cycle ends when every member known at its start has been visited.
///
/// Staleness bounds, with N member processes and C = ⌈3N / readBudget⌉ + 1 rounds (⌈N / 64⌉ + 1 by default; ⌈1.5N /
/// readBudget⌉ + 1 when the processes are steady): a process's own growth or shrinking shows within C rounds, a process
/// born in a watched group is counted within C rounds, one that exited (or left the group) stops counting within C
/// rounds (whoever has its pid by then is read as a new process), and a figure that moved only because sharers came or
/// went is at most `figureEvery` × C rounds old. When the budget covers every member, every round visits every process
/// (and lists `/proc`). A cgroup with `memory.current` is exact every round. Not seen: a process that joins a watched
/// group with `setpgid(2)` after a listing saw it in another group (possible only within the app's own session) counts
/// from when its pid is listed again as a new process.
public final class MemoryMeter: @unchecked Sendable {  // unchecked: used by one pass at a time (MemorySampler)
    /// The cost of a round's visits by default: 2,000 processes cost ≤ 2 % of a core at 250 ms, whatever their
    /// memory does (`scripts/bench`).
    public static let defaultReadBudget = 192
    /// A process's PSS is read again at least every this many visits by default, even when its `stat` shows no
    /// change.
    public static let defaultFigureEvery = 4

    /// What the meter knows of one process.
    private struct Known {
        var inode: UInt64
        var startTime: UInt64
        var group: Int32
        var live: Bool
        /// Its footprint when last read as a member; `nil` when never read as one (a process of no asked scope).
        var bytes: Int?
        /// Its `stat` counters when `bytes` was read.
        var faults: UInt64
        var residentPages: UInt64
        /// Visits since `bytes` was read.
        var visitsSinceFigure: Int
        var visitedInRound: Int

        /// Whether a visit that finds `stat` must read the PSS again (the process is a member).
        func figureDue(_ stat: ProcStat, every figureEvery: Int) -> Bool {
            bytes == nil || startTime != stat.startTime || faults != stat.faults
                || residentPages != stat.residentPages || visitsSinceFigure + 1 >= figureEvery
        }
    }

    private let readBudget: Int
    private let figureEvery: Int
    private let files = ProcessFiles()
    private var known: [Int32: Known] = [:]
    /// This cycle's member processes, least recently visited first, and how far the cycle went.
    private var queue: [Int32] = []
    private var cursor = 0
    private var round = 0
    private var listedGroups: Set<Int32> = []

    /// A meter whose visits cost at most `readBudget` a round (`Int.max`: every process, every round) and that reads
    /// a process's PSS at least every `figureEvery` visits (1: every visit).
    public init(readBudget: Int = MemoryMeter.defaultReadBudget, figureEvery: Int = MemoryMeter.defaultFigureEvery) {
        self.readBudget = max(1, readBudget)
        self.figureEvery = max(1, figureEvery)
    }

    /// One round: each target's figure, in the targets' order.
    public func measure(_ targets: [MemoryReading.Target]) -> [MemoryReading.Sample] {
        round += 1
        let asked = AskedScopes(targets.map(\.scope), files: files)
        if cursor >= queue.count || !asked.groups.isSubset(of: listedGroups) {
            startCycle(asked)
        }
        for pid in asked.anchors.union(asked.cgroupMembers) where needsReading(pid) {
            visit(pid, asked)
        }
        var spent = 0
        while spent < readBudget, cursor < queue.count {
            let pid = queue[cursor]
            cursor += 1
            guard let entry = known[pid], entry.visitedInRound != round else { continue }
            spent += visit(pid, asked)
        }
        let groupTotals = totals(of: asked.groups, asked)
        return targets.map { target in
            let (bytes, processes) = figure(of: target.scope, groupTotals: groupTotals, asked: asked)
            return MemoryReading.Sample(appID: target.appID, residentBytes: bytes, processes: processes)
        }
    }

    /// Lists `/proc` when process groups are asked for (reading only new processes), forgets processes gone, and
    /// queues the members to visit, least recently visited first.
    private func startCycle(_ asked: AskedScopes) {
        if asked.groups.isEmpty {
            let kept = asked.anchors.union(asked.cgroupMembers)
            known = known.filter { kept.contains($0.key) }
        } else {
            var listed: [Int32: Known] = [:]
            for process in ProcessFiles.listProcesses() {
                if let entry = known[process.pid], entry.inode == process.inode {
                    listed[process.pid] = entry
                } else {
                    known[process.pid] = nil
                    visit(process.pid, asked)
                    listed[process.pid] = known[process.pid]
                }
            }
            known = listed
        }
        listedGroups = asked.groups
        queue = known.filter { $0.value.live && asked.wants($0.key, group: $0.value.group) }
            .sorted { ($0.value.visitedInRound, $0.key) < ($1.value.visitedInRound, $1.key) }.map(\.key)
        cursor = 0
    }

    /// Whether `pid` must be read this round: named by a scope and not read yet as a member (or never seen).
    private func needsReading(_ pid: Int32) -> Bool {
        guard let entry = known[pid] else { return true }
        return entry.live && entry.bytes == nil && entry.visitedInRound != round
    }

    /// Reads `pid`'s `stat`, and its PSS when it belongs to an asked scope and its figure is due (`figureDue`);
    /// records it, or forgets it when gone. Returns what it cost: 1 for the `stat`, 2 more for a PSS.
    @discardableResult
    private func visit(_ pid: Int32, _ asked: AskedScopes) -> Int {
        let previous = known[pid]
        let every = figureEvery
        let wanted = { (stat: ProcStat) in
            asked.wants(pid, group: stat.group) && previous.map { $0.figureDue(stat, every: every) } != false
        }
        guard let reading = files.read(pid, wanted: wanted) else {
            known[pid] = nil
            return 1
        }
        let stat = reading.stat
        var entry = Known(inode: reading.inode, startTime: stat.startTime, group: stat.group, live: !stat.isZombie,
                          bytes: reading.bytes, faults: stat.faults, residentPages: stat.residentPages,
                          visitsSinceFigure: 0, visitedInRound: round)
        if reading.bytes == nil, entry.live, asked.wants(pid, group: stat.group), let previous,
           previous.startTime == stat.startTime, previous.bytes != nil {
            // A member whose figure was not due keeps it, and the counters it was read at.
            entry.bytes = previous.bytes
            entry.faults = previous.faults
            entry.residentPages = previous.residentPages
            entry.visitsSinceFigure = previous.visitsSinceFigure + 1
        }
        known[pid] = entry
        return reading.bytes == nil ? 1 : 3
    }

    /// The sum and count of the live, read members of each asked group.
    private func totals(of groups: Set<Int32>, _ asked: AskedScopes) -> [Int32: (bytes: Int, processes: Int)] {
        guard !groups.isEmpty else { return [:] }
        var totals: [Int32: (bytes: Int, processes: Int)] = [:]
        for (pid, entry) in known where entry.live && groups.contains(entry.group) {
            if entry.bytes == nil { visit(pid, asked) }  // seen before its group was asked for
            guard let now = known[pid], now.live, let bytes = now.bytes, groups.contains(now.group) else { continue }
            totals[now.group, default: (0, 0)].bytes += bytes
            totals[now.group, default: (0, 0)].processes += 1
        }
        return totals
    }

    private func figure(
        of scope: MemoryScope, groupTotals: [Int32: (bytes: Int, processes: Int)], asked: AskedScopes
    ) -> (Int, Int) {
        switch scope {
        case .process(let pid):
            guard let entry = known[pid], entry.live, let bytes = entry.bytes else { return (0, 0) }
            return (bytes, 1)
        case .processGroup(let group):
            let total = groupTotals[group] ?? (0, 0)
            return (total.bytes, total.processes)
        case .cgroup(let path):
            let members = asked.cgroups[path]?.members ?? []
            if let bytes = asked.cgroups[path]?.current { return (bytes, members.count) }
            let figures = members.compactMap { pid in known[pid].flatMap { $0.live ? $0.bytes : nil } }
            return (figures.reduce(0, +), figures.count)
        }
    }
}

/// What one round asks for: the process groups, the pids named directly, and each cgroup's members and
/// `memory.current` (read once, at the round's start).
private struct AskedScopes {
    var groups: Set<Int32> = []
    var anchors: Set<Int32> = []
    var cgroups: [String: (members: [Int32], current: Int?)] = [:]
    /// Members of cgroups without `memory.current` (their PSS is summed).
    var cgroupMembers: Set<Int32> = []

    init(_ scopes: [MemoryScope], files: ProcessFiles) {
        for scope in scopes {
            if let anchor = scope.anchor { anchors.insert(anchor) }
            switch scope {
            case .processGroup(let group): groups.insert(group)
            case .process: break
            case .cgroup(let path) where cgroups[path] == nil:
                let members = files.cgroupProcesses(path) ?? []
                let current = files.cgroupMemory(path)
                cgroups[path] = (members, current)
                if current == nil { cgroupMembers.formUnion(members) }
            case .cgroup: break
            }
        }
    }

    /// Whether the process belongs to an asked scope (its PSS is wanted).
    func wants(_ pid: Int32, group: Int32) -> Bool {
        groups.contains(group) || anchors.contains(pid) || cgroupMembers.contains(pid)
    }
}
