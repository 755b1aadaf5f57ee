/// The figures the memory meter takes: what to measure of each app (`Target`) and what it found (`Sample`), and a
/// one-shot exact reading.
///
/// An app's figure is its own footprint, as jetsam measures it: its cgroup's `memory.current`, else the sum of its
/// processes' PSS (a page shared by n processes counts 1/n in each), never the sum of their RSS, which counts a
/// shared page once per process (2,001 forked processes: 16 × their PSS).
public enum MemoryReading {
    /// What to measure for one app.
    public struct Target: Sendable, Equatable {
        public var appID: String
        public var scope: MemoryScope

        public init(appID: String, scope: MemoryScope) {
            self.appID = appID
            self.scope = scope
        }

        /// The whole process group `pid` leads (a spawned app), or process `pid` alone.
        public init(appID: String, pid: Int32, wholeGroup: Bool) {
            self.init(appID: appID, scope: wholeGroup ? .processGroup(pid) : .process(pid))
        }
    }

    /// One app's figure.
    public struct Sample: Sendable, Equatable {
        public var appID: String
        /// The app's footprint in bytes (`memory.current`, or the PSS sum of its processes).
        public var residentBytes: Int
        /// How many processes it covers (0 when none was found: the app is gone).
        public var processes: Int

        public init(appID: String, residentBytes: Int, processes: Int) {
            self.appID = appID
            self.residentBytes = residentBytes
            self.processes = processes
        }
    }

    /// Each target's figure now, every process read (no staleness), in the targets' order.
    public static func sample(_ targets: [Target]) -> [Sample] {
        MemoryMeter(readBudget: .max).measure(targets)
    }
}
