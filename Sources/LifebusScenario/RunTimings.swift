public import LifebusJSON
import LifebusLifecycle

/// Each scenario × profile's last recorded duration, for balancing `--shard`: read from a report `lifebus run
/// --json`/`--report` or `lifebus merge --json` wrote (its `runs`, each with `file`, `scenario`, `profile` and
/// `seconds`). A plain value; an entry the report holds twice keeps the last.
public struct RunTimings: Sendable, Equatable {
    public var seconds: [ShardItem: Double]

    public init(seconds: [ShardItem: Double] = [:]) {
        self.seconds = seconds
    }

    /// Why a timings file could not be read.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The timings in `report`; a run whose members are missing or of the wrong kind is refused with its place.
    public init(report: JSONValue) throws(Failure) {
        guard let runs = report["runs"]?.arrayValue else {
            throw Failure(description: "not a lifebus run report: no \"runs\" array")
        }
        var seconds: [ShardItem: Double] = [:]
        for (index, run) in runs.enumerated() {
            guard let file = run["file"]?.stringValue, let scenario = run["scenario"]?.stringValue,
                let profile = run["profile"]?.stringValue.flatMap(Profile.init(rawValue:)),
                let time = run["seconds"]?.doubleValue, time.isFinite, time >= 0
            else {
                throw Failure(description: "runs[\(index)]: needs file, scenario, a known profile and seconds ≥ 0")
            }
            seconds[ShardItem(file: file, scenario: scenario, profile: profile)] = time
        }
        self.seconds = seconds
    }
}
