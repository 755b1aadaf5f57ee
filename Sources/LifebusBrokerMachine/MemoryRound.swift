public import LifebusLifecycle

/// One round of resident-memory samples as the driver hands them to the machine, with what the pressure policy
/// (`LifebusSupervision.MemoryPressurePolicy`, run by the driver) decided for it.
///
/// A plain value. `level` (`normal`, `warning`, `critical`) is `nil` when the broker has no device size (samples
/// only); `kills` are the policy's planned kills, in order, with their figures.
public struct MemoryRound: Sendable, Equatable {
    /// One kill the policy planned.
    public struct Kill: Sendable, Equatable {
        public var app: AppID
        /// `jetsam` or `memoryLimit`.
        public var reason: KillReason
        public var residentBytes: Int
        public var limit: Int?

        public init(app: AppID, reason: KillReason, residentBytes: Int, limit: Int?) {
            self.app = app
            self.reason = reason
            self.residentBytes = residentBytes
            self.limit = limit
        }
    }

    /// Each sampled app's resident bytes (its whole process group for a spawned app).
    public var samples: [AppID: Int]
    public var level: MemoryPressure?
    public var totalBytes: Int
    public var deviceMemory: Int?
    public var kills: [Kill]

    public init(
        samples: [AppID: Int], level: MemoryPressure? = nil, totalBytes: Int = 0, deviceMemory: Int? = nil,
        kills: [Kill] = []
    ) {
        self.samples = samples
        self.level = level
        self.totalBytes = totalBytes
        self.deviceMemory = deviceMemory
        self.kills = kills
    }
}
