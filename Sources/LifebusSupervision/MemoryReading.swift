import Glibc

/// Resident memory of processes and process groups, read from `/proc` (`statm`'s resident pages × page size).
///
/// Stateless. One reading lists `/proc` once and reads each process's `stat` once, so sampling many apps costs one
/// pass over the machine's processes, not one per app.
public enum MemoryReading {
    /// What to measure for one app.
    public struct Target: Sendable, Equatable {
        public var appID: String
        public var pid: Int32
        /// Sum over every live process whose group is `pid` (a spawned app leads its group); else `pid` alone.
        public var wholeGroup: Bool

        public init(appID: String, pid: Int32, wholeGroup: Bool) {
            self.appID = appID
            self.pid = pid
            self.wholeGroup = wholeGroup
        }
    }

    /// One app's figure.
    public struct Sample: Sendable, Equatable {
        public var appID: String
        public var residentBytes: Int
        /// How many processes were summed (0 when none was found: the app is gone).
        public var processes: Int
    }

    /// The resident bytes of each target, in the targets' order.
    public static func sample(_ targets: [Target]) -> [Sample] {
        let groups = Set(targets.filter(\.wholeGroup).map(\.pid))
        var members: [Int32: [Int32]] = [:]
        if !groups.isEmpty {
            for pid in ProcStat.allProcessIDs() {
                guard let stat = ProcStat.read(pid), groups.contains(stat.group), !stat.isZombie else { continue }
                members[stat.group, default: []].append(pid)
            }
        }
        return targets.map { target in
            let pids = target.wholeGroup ? members[target.pid] ?? [] : [target.pid]
            let sizes = pids.compactMap(residentBytes)
            return Sample(appID: target.appID, residentBytes: sizes.reduce(0, +), processes: sizes.count)
        }
    }

    /// The resident bytes of one process, `nil` when it is gone.
    public static func residentBytes(_ pid: Int32) -> Int? {
        guard let text = try? SystemFiles.read("/proc/\(pid)/statm", limit: 1024) else { return nil }
        let fields = text.split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * pageSize
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
}
