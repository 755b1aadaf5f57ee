import Glibc
import Lifebus

/// How `MemoryGrower` grows, from the arguments after the SDK's own: `--step-mib N` (default 8), `--period-ms N`
/// (default 100), `--limit-mib N` (default 512; it stops growing there) and `--ignore-warnings` (the hog).
///
/// A plain value; a bad argument prints the problem and exits 2.
struct GrowthSettings {
    var stepMiB = 8
    var periodMs = 100
    var limitMiB = 512
    var ignoresWarnings = false

    static let usage = "[--step-mib N] [--period-ms N] [--limit-mib N] [--ignore-warnings]"

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--step-mib": stepMiB = Self.number(argument, iterator.next())
            case "--period-ms": periodMs = Self.number(argument, iterator.next())
            case "--limit-mib": limitMiB = Self.number(argument, iterator.next())
            case "--ignore-warnings": ignoresWarnings = true
            default: Self.fail("unknown argument \(argument)")
            }
        }
    }

    private static func number(_ name: String, _ text: String?) -> Int {
        guard let text, let value = Int(text), value > 0, value <= 1 << 20 else {
            fail("\(name) needs a whole number from 1 to 1048576")
        }
        return value
    }

    private static func fail(_ problem: String) -> Never {
        let line = "MemoryGrower: \(problem)\nusage: MemoryGrower [SDK options] \(usage)\n"
        _ = line.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
        exit(2)
    }
}
