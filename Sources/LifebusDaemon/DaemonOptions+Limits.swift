import LifebusBroker
import LifebusProtocol

/// `lifebusd`'s connection-limit options (`--max-connections`, `--max-unintroduced`, `--max-output`,
/// `--write-timeout`, `--max-unanswered`), each checked for range before it reaches the broker.
extension ConnectionLimits {
    /// The largest count or size an option takes: far beyond any sensible value, far below any overflow.
    static let optionCeiling = 1 << 40

    mutating func set(_ name: String, _ text: String) throws(DaemonOptions.UsageError) {
        func invalid(_ expected: String) -> DaemonOptions.UsageError {
            DaemonOptions.UsageError(description: "'\(text)' is not valid for '--\(name)': \(expected)")
        }
        switch name {
        case "write-timeout":
            guard let duration = DurationText.parse(text), duration > .zero, duration <= .seconds(86_400) else {
                throw invalid("a duration from 1ms to 24h, like 500ms or 10s")
            }
            writeStallTimeout = duration
        case "max-output":
            guard case let bytes?? = ByteSizeText.parse(text), (1024...Self.optionCeiling).contains(bytes) else {
                throw invalid("a size of at least 1024 bytes, like 512KiB or 4MiB")
            }
            maxOutputBytes = bytes
        default:
            guard let count = Int(text), (1...Self.optionCeiling).contains(count) else {
                throw invalid("a whole number of at least 1")
            }
            switch name {
            case "max-connections": maxConnections = count
            case "max-unintroduced": maxConnectionsBeforeHello = count
            default: maxUnansweredRequests = count
            }
        }
    }
}
