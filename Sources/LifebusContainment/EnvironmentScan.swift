/// Finds one variable's value in an environment block (`KEY=VALUE` entries, each ended by a NUL, as
/// `/proc/PID/environ` holds them) fed in chunks of any size, so that no environment is too large to scan.
///
/// A value type holding only the match in progress: how much of `NAME=` the current entry has matched, and the
/// value's bytes once it has. Invariant: the first entry named `NAME` wins; the value is its bytes up to its NUL
/// (or to the end of the block).
struct EnvironmentScan {
    private let prefix: [UInt8]
    private var matched = 0
    private var mismatched = false
    private var value: [UInt8]?

    init(name: String) {
        prefix = Array((name + "=").utf8)
    }

    /// Scans the next chunk; returns the value once an entry named `NAME` has ended in it.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) -> [UInt8]? {
        for byte in chunk {
            if value != nil {
                if byte == 0 { return value }
                value?.append(byte)
            } else if byte == 0 {
                matched = 0
                mismatched = false
            } else if !mismatched {
                if byte == prefix[matched] {
                    matched += 1
                    if matched == prefix.count { value = [] }
                } else {
                    mismatched = true
                }
            }
        }
        return nil
    }

    /// At the end of the block: the value of an entry named `NAME` that the end cut short, if any.
    func finish() -> [UInt8]? { value }
}
