import Glibc

/// Measures heap allocations per input with valgrind: runs this executable twice under memcheck with
/// different input counts and divides the difference of valgrind's "total heap usage: N allocs" by the
/// difference of inputs, so start-up allocations cancel out.
enum AllocationProbe {
    static let smallRun = 20_000
    static let largeRun = 60_000

    /// Allocations per input, or a reason why it could not be measured.
    static func allocationsPerInput() -> Result<Double, ProbeFailure> {
        guard access("/usr/bin/valgrind", X_OK) == 0 else {
            return .failure(ProbeFailure(reason: "valgrind not installed"))
        }
        guard let small = heapAllocations(inputs: smallRun), let large = heapAllocations(inputs: largeRun) else {
            return .failure(ProbeFailure(reason: "valgrind gave no heap summary"))
        }
        return .success(Double(large - small) / Double(largeRun - smallRun))
    }

    /// The allocation count valgrind reports for one run of `inputs` inputs.
    private static func heapAllocations(inputs: Int) -> Int? {
        let command = "valgrind --tool=memcheck --leak-check=no /proc/\(getpid())/exe --raw \(inputs) 2>&1"
        guard let pipe = popen(command, "r") else {
            return nil
        }
        defer { pclose(pipe) }
        var line = [CChar](repeating: 0, count: 1024)
        while fgets(&line, Int32(line.count), pipe) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let marker = "total heap usage: "
            guard let start = text.indices.first(where: { text[$0...].hasPrefix(marker) }) else {
                continue
            }
            let rest = text[text.index(start, offsetBy: marker.count)...]
            return Int(String(rest.prefix { $0.isNumber || $0 == "," }.filter { $0 != "," }))
        }
        return nil
    }

    struct ProbeFailure: Error {
        let reason: String
    }
}
