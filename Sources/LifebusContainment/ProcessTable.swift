import Glibc

/// One pass over `/proc`: every process's parent, group, start time, state and containment tokens, from which the
/// processes of one contained run are found (subreaper mode, and the guard).
///
/// A plain value, true at the instant it was read: a process may exit or fork after. Callers that signal what they
/// find go through `ProcessTable.kill`, which opens a pidfd and checks the start time again, so a reused pid is
/// never signalled.
struct ProcessTable {
    /// What one process's files said.
    struct Entry: Equatable {
        let pid: Int32
        let parent: Int32
        let group: Int32
        let startTime: UInt64
        let isZombie: Bool
        /// The tokens of its `LIFEBUS_CONTAINMENT` variable (empty when it has none, or its environment is unreadable).
        let tokens: [Substring]

        var identity: Identity { Identity(pid: pid, startTime: startTime) }
    }

    let entries: [Entry]

    /// Reads the `stat` and environment of every process below `root` (its children, theirs, and so on), or of
    /// every process when `root` is `nil`. A child subreaper's descendants never leave its tree while it lives
    /// (orphans come back to it), so its own tree is all there is to read.
    static func read(below root: Int32? = nil) -> ProcessTable {
        read(from: root.map { children(of: $0) })
    }

    /// Reads the `stat` and environment of `roots` and of every descendant of theirs (through
    /// `/proc/PID/task/*/children`), or of every process when `roots` is `nil` or the kernel lists no children
    /// (built without `CONFIG_PROC_CHILDREN`: then the whole of `/proc`, the tokens still find the run).
    static func read(from roots: [Int32]?) -> ProcessTable {
        guard let roots, childrenAreListed else {
            let names = (try? SystemFiles.names(in: "/proc")) ?? []
            return ProcessTable(entries: names.compactMap { Int32($0) }.compactMap { entry($0) })
        }
        var entries: [Entry] = []
        var seen: Set<Int32> = []
        var pending = roots
        while let pid = pending.popLast() {
            guard seen.insert(pid).inserted, let found = entry(pid) else { continue }
            entries.append(found)
            pending += children(of: pid)
        }
        return ProcessTable(entries: entries)
    }

    /// Whether this kernel lists a task's children (`/proc/self/task/TID/children`).
    static let childrenAreListed = access("/proc/self/task/\(getpid())/children", R_OK) == 0

    /// The live processes that carry `token`, or are `roots`, or are in one of `groups`, with every descendant of
    /// those: the processes of one contained run. A process that cleared its environment is still found while a
    /// parent of it is.
    func members(token: String?, roots: Set<Int32> = [], groups: Set<Int32> = []) -> [Entry] {
        var chosen = Set(entries.filter { entry in
            roots.contains(entry.pid) || groups.contains(entry.group)
                || token.map { token in entry.tokens.contains { $0 == token } } ?? false
        }.map(\.pid))
        var children: [Int32: [Int32]] = [:]
        for entry in entries { children[entry.parent, default: []].append(entry.pid) }
        var pending = Array(chosen)
        while let pid = pending.popLast() {
            for child in children[pid] ?? [] where chosen.insert(child).inserted { pending.append(child) }
        }
        return entries.filter { chosen.contains($0.pid) && !$0.isZombie }
    }

    /// The live processes with a token starting with `prefix` (every run of one containment), and their descendants.
    func members(tokenPrefix prefix: String) -> [Entry] {
        let roots = Set(entries.filter { $0.tokens.contains { $0.hasPrefix(prefix) } }.map(\.pid))
        return members(token: nil, roots: roots)
    }

    /// At most this many passes of `killRepeatedly` (a tree that still has live members then is left to the
    /// caller's next kill, or to the guard).
    static let maximumPasses = 100

    /// Ends the processes `find` returns from a fresh table of `roots()`' trees (`nil`: all of `/proc`), pass after
    /// pass until one finds no live member: each pass SIGSTOPs what it found (a stopped process cannot fork
    /// again), then SIGKILLs and SIGCONTs it, so a tree forking meanwhile cannot outrun it; a pass that found only
    /// processes already killed (still dying) waits 1 ms. At most `maximumPasses` passes. Returns how many
    /// processes were killed.
    @discardableResult
    static func killRepeatedly(roots: () -> [Int32]?, _ find: (ProcessTable) -> [Entry]) -> Int {
        var killed: Set<Identity> = []
        for _ in 0..<maximumPasses {
            let live = find(read(from: roots()))
            guard !live.isEmpty else { break }
            let fresh = live.filter { !killed.contains($0.identity) }
            for entry in fresh { _ = send(SIGSTOP, to: entry) }
            for entry in fresh where send(SIGKILL, to: entry) {
                killed.insert(entry.identity)
                _ = send(SIGCONT, to: entry)
            }
            if fresh.isEmpty { usleep(1_000) }
        }
        return killed.count
    }

    /// One process for the boot's life: its pid and start time.
    struct Identity: Hashable {
        let pid: Int32
        let startTime: UInt64
    }

    /// Sends `signal` to each of `entries` that is still the process read; returns how many got it.
    @discardableResult
    static func send(_ signal: Int32, to entries: [Entry]) -> Int {
        entries.filter { send(signal, to: $0) }.count
    }

    /// Sends `signal` through a pidfd, after checking that the pid still names the process read (same start time).
    static func send(_ signal: Int32, to entry: Entry) -> Bool {
        guard entry.pid != getpid(), let handle = try? ProcessDescriptor.open(entry.pid),
              let now = Self.entry(entry.pid, readingEnvironment: false), now.startTime == entry.startTime
        else { return false }
        return handle.send(signal) == nil
    }

    /// The start time of `pid` (clock ticks after boot, `/proc/PID/stat`); `nil` when it is gone.
    static func startTime(of pid: Int32) -> UInt64? {
        entry(pid, readingEnvironment: false)?.startTime
    }

    /// The children of this process (of each of its threads): `/proc/self/task/*/children`.
    static func ownChildren() -> [Int32] {
        children(of: getpid())
    }

    /// The children of `pid` (of each of its threads): `/proc/PID/task/*/children`.
    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? SystemFiles.names(in: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [Int32] in
            let text = (try? SystemFiles.read("/proc/\(pid)/task/\(task)/children", limit: 1 << 20)) ?? []
            return String(decoding: text, as: UTF8.self).split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// The environment variable that carries containment tokens, comma-separated (a `subscribe` under a broker
    /// appends its own to the broker's).
    static let variable = "LIFEBUS_CONTAINMENT"

    private static func entry(_ pid: Int32, readingEnvironment: Bool = true) -> Entry? {
        guard let bytes = try? SystemFiles.read("/proc/\(pid)/stat", limit: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        // After the command: state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime,
        // stime, cutime, cstime, priority, nice, threads, itrealvalue, starttime.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let parent = Int32(fields[1]), let group = Int32(fields[2]),
              let start = UInt64(fields[19])
        else { return nil }
        return Entry(pid: pid, parent: parent, group: group, startTime: start, isZombie: fields[0] == "Z",
                     tokens: readingEnvironment ? tokens(of: pid) : [])
    }

    /// The tokens in `LIFEBUS_CONTAINMENT` of `pid`'s environment as it was at its `execve` (`/proc/PID/environ`),
    /// scanned 4 KiB at a time through one small buffer, however large the environment is.
    static func tokens(of pid: Int32) -> [Substring] {
        let descriptor = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var scan = EnvironmentScan(name: variable)
        let value = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer -> [UInt8]? in
            while true {
                let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return scan.finish() }
                let read = UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
                if let value = scan.feed(read) { return value }
            }
        }
        return value.map { String(decoding: $0, as: UTF8.self).split(separator: ",") } ?? []
    }
}
