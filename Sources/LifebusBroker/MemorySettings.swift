public import LifebusSupervision

/// How the broker watches its apps' resident memory (`lifebusd --memory-sample`, `--device-memory`,
/// `--memory-warning-at`, `--memory-critical-at`).
///
/// A plain value. `policy` is set only with a device size; without one the samples are only shown (`apps`) and
/// order jetsam victims, and no pressure is raised from them.
public struct MemorySettings: Sendable, Equatable {
    /// How often every running app is sampled; `nil` samples nothing.
    public var samplePeriod: Duration?
    public var policy: MemoryPressurePolicy?

    /// The period used when a device size is given without `--memory-sample`.
    public static let defaultSamplePeriod: Duration = .milliseconds(250)

    public init(samplePeriod: Duration? = nil, policy: MemoryPressurePolicy? = nil) {
        self.samplePeriod = samplePeriod
        self.policy = policy
    }
}
