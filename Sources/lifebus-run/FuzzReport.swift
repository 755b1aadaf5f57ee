import LifebusJSON
import LifebusLifecycle

/// The JSON report of `lifebus run --random SEED|--seeds A..B --report FILE`, which `lifebus merge` joins:
/// `{"passed":…,"fuzz":[{seed, profile, outcome: held|broke|stopped, steps?, reproducer?, reason?}]}`. Stateless.
enum FuzzReport {
    /// One seed's session under one profile.
    struct Run {
        var seed: UInt64
        var profile: Profile
        var outcome: RandomRun.Outcome
    }

    static func json(_ runs: [Run]) -> JSONValue {
        var passed = true
        let items: [JSONValue] = runs.map { run in
            var object: JSONObject = [
                "seed": .string(String(run.seed)), "profile": .string(run.profile.rawValue),
            ]
            switch run.outcome {
            case .held(let steps):
                object.append("outcome", .string("held"))
                object.append("steps", .integer(Int64(steps)))
            case .broke(let reproducer, _):
                passed = false
                object.append("outcome", .string("broke"))
                object.append("reproducer", .string(reproducer))
            case .stopped(let reason):
                passed = false
                object.append("outcome", .string("stopped"))
                object.append("reason", .string(reason))
            }
            return .object(object)
        }
        return ["passed": .bool(passed), "fuzz": .array(items)]
    }
}
