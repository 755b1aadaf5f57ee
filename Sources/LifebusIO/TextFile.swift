import Glibc

/// Writes a whole file at once (a picture, a trace) without Foundation. Stateless.
public enum TextFile {
    /// Why a file could not be written: the path and the system's reason.
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let errno: Int32

        public var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
    }

    /// Creates or replaces the file at `path` (mode 0644 before the umask) with `text`.
    public static func write(_ text: String, to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: path, errno: errno) }
        defer { close(descriptor) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, errno: errno)
            }
            bytes = bytes.dropFirst(count)
        }
    }
}
