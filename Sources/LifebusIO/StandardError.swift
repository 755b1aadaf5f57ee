import Glibc

/// Writes to the process's standard error without touching C's `stderr` global (not concurrency-safe in Swift 6).
public enum StandardError {
    /// Writes `line` and a newline to file descriptor 2, whole.
    public static func writeLine(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
