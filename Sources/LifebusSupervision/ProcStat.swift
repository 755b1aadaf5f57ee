import Glibc

/// The fields of `/proc/PID/stat` the supervisor needs: state, parent, process group and start time.
///
/// A plain value read in one go. `comm` (field 2) may hold spaces and parentheses, so the fields are counted from
/// the last `)`. `startTime` is in clock ticks since boot: with the pid it names one process for the boot's life.
public struct ProcStat: Sendable, Equatable {
    public let pid: Int32
    /// `R`, `S`, `D`, `T` (stopped), `Z` (zombie), …
    public let state: Character
    public let parent: Int32
    public let group: Int32
    public let startTime: UInt64

    /// Whether the process has exited and waits to be reaped.
    public var isZombie: Bool { state == "Z" || state == "X" }
    /// Whether it is stopped by a signal (`SIGSTOP`).
    public var isStopped: Bool { state == "T" }

    /// Parses the text of a stat file; `nil` when it is not one.
    public init?(pid: Int32, text: [UInt8]) {
        guard let close = text.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = text[(close + 1)...].split(separator: UInt8(ascii: " "))
            .map { String(decoding: $0, as: UTF8.self) }
        // After `)`: state is field 3 of the file, so field n sits at index n - 3; starttime is field 22.
        guard fields.count > 19, let state = fields[0].first, let parent = Int32(fields[1]),
              let group = Int32(fields[2]), let startTime = UInt64(fields[19])
        else { return nil }
        self.pid = pid
        self.state = state
        self.parent = parent
        self.group = group
        self.startTime = startTime
    }

    /// Reads `/proc/PID/stat`; `nil` when the process is gone (or the file is unreadable).
    public static func read(_ pid: Int32) -> ProcStat? {
        guard let text = try? SystemFiles.read("/proc/\(pid)/stat", limit: 4096) else { return nil }
        return ProcStat(pid: pid, text: text)
    }

    /// Every process `/proc` lists now (pids only; a process may be gone by the time it is read).
    public static func allProcessIDs() -> [Int32] {
        ((try? SystemFiles.names(in: "/proc")) ?? []).compactMap { Int32($0) }
    }

    /// The live (not zombie) members of process group `group`, read from every `/proc/*/stat`.
    public static func members(ofGroup group: Int32) -> [ProcStat] {
        allProcessIDs().compactMap(read).filter { $0.group == group && !$0.isZombie }
    }
}
