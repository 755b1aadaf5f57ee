import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusSupervision

/// A round of the supervisor's resident-memory samples made into the machine's input: with a device size, the
/// pure `MemoryPressurePolicy` assesses it against each app's standing (from the machine's lifecycle states and its
/// manifest's background modes) and its manifest's `memoryLimit`.
extension Broker {
    func memoryRound(_ samples: [MemoryReading.Sample]) -> MemoryRound {
        let live = samples.filter { $0.processes > 0 }
        var round = MemoryRound(samples: Dictionary(live.map { (AppID($0.appID), $0.residentBytes) }) { $1 })
        guard let policy = configuration.memory.policy else { return round }
        var settling: Set<String> = []
        let apps = live.compactMap { sample -> AppMemory? in
            let standing: AppMemory.Standing
            switch machine.device.state(of: AppID(sample.appID)) {
            case .active, .inactive: standing = .foreground
            case .background:
                // Only an app with background modes runs there; any other is on its way to suspended (its
                // didEnterBackground), and is jetsammed once it gets there rather than terminated now: its memory
                // counts as a suspended app's, but a kill the policy plans for it waits for a round that finds it
                // suspended.
                let modes = supervisor?.manifests[sample.appID]?.backgroundModes ?? []
                standing = modes.isEmpty ? .suspended : .background
                if modes.isEmpty { settling.insert(sample.appID) }
            case .suspended: standing = .suspended
            case .notRunning: return nil
            }
            return AppMemory(appID: sample.appID, residentBytes: sample.residentBytes, standing: standing,
                             limit: supervisor?.manifests[sample.appID]?.memoryLimit)
        }
        let assessment = policy.assess(apps)
        round.level = assessment.level
        round.totalBytes = assessment.totalBytes
        round.deviceMemory = assessment.deviceMemory
        round.kills = assessment.kills.filter { $0.reason != .jetsam || !settling.contains($0.appID) }.map {
            MemoryRound.Kill(app: AppID($0.appID), reason: $0.reason, residentBytes: $0.residentBytes,
                             limit: $0.limit)
        }
        return round
    }
}
