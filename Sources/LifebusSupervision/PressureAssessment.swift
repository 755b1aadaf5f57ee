public import LifebusLifecycle

/// One app as the pressure policy sees it: what it holds, where it stands, its own limit.
public struct AppMemory: Sendable, Equatable {
    /// Where the app stands in the lifecycle, as far as memory is concerned (the broker maps its states here).
    public enum Standing: String, Sendable, Equatable {
        /// Active or inactive: in front of the user.
        case foreground
        /// Running in the background.
        case background
        /// Suspended: not running, killed first and without notice.
        case suspended
    }

    public var appID: String
    public var residentBytes: Int
    public var standing: Standing
    /// The manifest's `memoryLimit`, if any.
    public var limit: Int?

    public init(appID: String, residentBytes: Int, standing: Standing, limit: Int? = nil) {
        self.appID = appID
        self.residentBytes = residentBytes
        self.standing = standing
        self.limit = limit
    }

    /// Bytes over the limit (≤ 0 when within it or without one).
    var overshoot: Int { limit.map { residentBytes - $0 } ?? 0 }
}

/// One kill the policy decided, with the figures the journal records for it.
public struct PlannedKill: Sendable, Equatable {
    /// Whether the app is told first.
    public enum Notice: String, Sendable, Equatable {
        /// Killed without any callback (as jetsam kills a suspended or over-limit app).
        case none
        /// Terminated: `willTerminate` within its budget, then killed.
        case terminate
    }

    public var appID: String
    public var reason: KillReason
    public var notice: Notice
    public var residentBytes: Int
    public var limit: Int?
    public var level: MemoryPressure
    /// The device's measured total when the decision was taken.
    public var totalBytes: Int
    public var deviceMemory: Int

    init(
        app: AppMemory, reason: KillReason, notice: Notice, level: MemoryPressure, totalBytes: Int, deviceMemory: Int
    ) {
        appID = app.appID
        self.reason = reason
        self.notice = notice
        residentBytes = app.residentBytes
        limit = app.limit
        self.level = level
        self.totalBytes = totalBytes
        self.deviceMemory = deviceMemory
    }
}

/// What `MemoryPressurePolicy.assess` decided for one round of samples.
public struct PressureAssessment: Sendable, Equatable {
    public var level: MemoryPressure
    public var totalBytes: Int
    public var deviceMemory: Int
    public var warningBytes: Int
    public var criticalBytes: Int
    /// In the order to carry them out.
    public var kills: [PlannedKill]
    /// Running apps to send `didReceiveMemoryWarning` (none at `normal`).
    public var memoryWarnings: [String]
}
