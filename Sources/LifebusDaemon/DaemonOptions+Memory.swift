import LifebusBroker
import LifebusProtocol
import LifebusSupervision

/// `lifebusd`'s memory options: `--memory-sample DUR`, `--device-memory SIZE`, `--memory-warning-at T`,
/// `--memory-critical-at T` (a fraction such as `0.8` or `80%`, or a size).
///
/// A plain value; `settings` is what the broker is given.
struct MemoryOptions: Equatable {
    var samplePeriod: Duration?
    var deviceMemory: Int?
    var warningAt: MemoryThreshold = .fraction(0.8)
    var criticalAt: MemoryThreshold = .fraction(0.95)

    static let names: Set<String> = ["memory-sample", "device-memory", "memory-warning-at", "memory-critical-at"]

    mutating func set(_ name: String, _ text: String) throws(DaemonOptions.UsageError) {
        func invalid(_ expected: String) -> DaemonOptions.UsageError {
            DaemonOptions.UsageError(description: "'\(text)' is not valid for '--\(name)': \(expected)")
        }
        switch name {
        case "memory-sample":
            guard let period = DurationText.parse(text), period >= .milliseconds(10), period <= .seconds(3600) else {
                throw invalid("a duration from 10ms to 1h, like 250ms")
            }
            samplePeriod = period
        case "device-memory":
            guard let bytes = ByteSize.parse(text), bytes > 0 else { throw invalid("a size like 512MiB or 4GiB") }
            deviceMemory = bytes
        default:
            guard let threshold = MemoryThreshold.parse(text) else {
                throw invalid("a fraction like 0.8 or 80%, or a size like 3GiB")
            }
            if name == "memory-warning-at" { warningAt = threshold } else { criticalAt = threshold }
        }
    }

    var settings: MemorySettings {
        let policy = deviceMemory.map {
            MemoryPressurePolicy(deviceMemory: $0, warningAt: warningAt, criticalAt: criticalAt)
        }
        let period = samplePeriod ?? (policy == nil ? nil : MemorySettings.defaultSamplePeriod)
        return MemorySettings(samplePeriod: period, policy: policy)
    }
}
