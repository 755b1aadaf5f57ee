public import LifebusLifecycle

/// Where each sampled app stands for the memory-pressure policy, and the "settling" rule: an app in the background
/// without background modes is on its way to suspended (its `didEnterBackground`): its memory counts as a suspended
/// app's, but a jetsam kill the policy plans for it waits for a round that finds it suspended.
extension BrokerMachine {
    /// How the pressure policy treats an app's memory (the driver's policy has the same three standings).
    public enum MemoryStanding: Sendable, Equatable {
        /// Active or inactive: in front of the user.
        case foreground
        /// Running in the background (with background modes).
        case background
        /// Suspended, or settling toward it: killed first, without notice.
        case suspended
    }

    /// One sampled app as the pressure policy weighs it.
    public struct SampledApp: Sendable, Equatable {
        public var app: AppID
        public var residentBytes: Int
        public var standing: MemoryStanding
        /// The installed manifest's `memoryLimit`, if any.
        public var limit: Int?

        public init(app: AppID, residentBytes: Int, standing: MemoryStanding, limit: Int?) {
            self.app = app
            self.residentBytes = residentBytes
            self.standing = standing
            self.limit = limit
        }
    }

    /// The apps of a round of samples the policy weighs, in the samples' order: the running ones (a sample of an app
    /// the core holds as not running is dropped), each with its standing and limit.
    public func memoryStandings(of samples: [(app: AppID, residentBytes: Int)]) -> [SampledApp] {
        samples.compactMap { sample in
            let standing: MemoryStanding
            switch device.state(of: sample.app) {
            case .active, .inactive: standing = .foreground
            case .background: standing = isSettling(sample.app) ? .suspended : .background
            case .suspended: standing = .suspended
            case .notRunning: return nil
            }
            return SampledApp(app: sample.app, residentBytes: sample.residentBytes, standing: standing,
                              limit: processes.installed[sample.app]?.memoryLimit)
        }
    }

    /// `round` without the jetsam kills planned for settling apps (they are killed once found suspended).
    func withoutSettlingKills(_ round: MemoryRound) -> MemoryRound {
        guard round.kills.contains(where: { $0.reason == .jetsam }) else { return round }
        var round = round
        round.kills.removeAll { $0.reason == .jetsam && device.state(of: $0.app) == .background && isSettling($0.app) }
        return round
    }

    /// In the background without a mode that keeps it running (the installed manifest's; an app not installed has
    /// none).
    private func isSettling(_ app: AppID) -> Bool {
        !(processes.installed[app]?.flags.keepsRunningInBackground ?? false)
    }
}
