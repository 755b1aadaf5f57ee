import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusSupervision

/// A round of the supervisor's resident-memory samples made into the machine's input: with a device size, the
/// pure `MemoryPressurePolicy` assesses the apps as the machine weighs them (`BrokerMachine.memoryStandings`: each
/// app's standing and limit); the machine keeps or drops each planned kill.
extension Broker {
    func memoryRound(_ samples: [MemoryReading.Sample]) -> MemoryRound {
        let live = samples.filter { $0.processes > 0 }
        var round = MemoryRound(samples: Dictionary(live.map { (AppID($0.appID), $0.residentBytes) }) { $1 })
        guard let policy = configuration.memory.policy else { return round }
        let weighed = machine.memoryStandings(of: live.map { (AppID($0.appID), $0.residentBytes) })
        let assessment = policy.assess(weighed.map { app in
            let standing: AppMemory.Standing = switch app.standing {
            case .foreground: .foreground
            case .background: .background
            case .suspended: .suspended
            }
            return AppMemory(appID: app.app.rawValue, residentBytes: app.residentBytes, standing: standing,
                             limit: app.limit)
        })
        round.level = assessment.level
        round.totalBytes = assessment.totalBytes
        round.deviceMemory = assessment.deviceMemory
        round.kills = assessment.kills.map {
            MemoryRound.Kill(app: AppID($0.appID), reason: $0.reason, residentBytes: $0.residentBytes,
                             limit: $0.limit)
        }
        return round
    }
}
