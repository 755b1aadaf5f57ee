import Glibc
import LifebusIO
import LifebusLifecycle

/// A small file holding an app's saved state as text, written atomically (a temporary file renamed over it), with
/// Glibc only. A plain value naming a path; it holds no descriptor between calls.
///
/// `path(for:explicit:environment:)` chooses where: an explicit path (`--state-file`), else
/// `$LIFEBUS_STATE_DIR/<app id>.state`, else `/tmp/lifebus-<uid>/state/<app id>.state`.
public struct StateFile: Sendable, Equatable {
    /// Why a read or write failed: the failing call and its errno.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// The call that failed, e.g. `open`.
        public let function: String
        /// The `errno` it set.
        public let errno: Int32
        public var description: String { "\(function): \(String(cString: strerror(errno)))" }
    }

    /// The environment variable naming the folder of state files: `LIFEBUS_STATE_DIR` (`AppStateFolder`).
    public static let directoryVariable = AppStateFolder.environmentVariable

    /// The file's path.
    public let path: String

    /// Names the file at `path` (it need not exist yet).
    ///
    /// - Parameter path: The file's path.
    public init(path: String) {
        self.path = path
    }

    /// The state file of `appID` (see the type's comment for the order).
    /// `environment` defaults to the process's own.
    ///
    /// - Parameters:
    ///   - appID: The app's id, the file's name in a state folder.
    ///   - explicit: A path given on the command line (`--state-file`); wins when not empty.
    ///   - environment: The environment to read `LIFEBUS_STATE_DIR` from; the process's own by default.
    /// - Returns: The state file's path.
    public static func path(for appID: String, explicit: String?, environment: [String: String]? = nil) -> String {
        let environment = environment ?? ProcessEnvironment.current
        if let explicit, !explicit.isEmpty { return explicit }
        if let directory = environment[directoryVariable], !directory.isEmpty {
            return (directory.hasSuffix("/") ? directory : directory + "/") + appID + ".state"
        }
        return "/tmp/lifebus-\(getuid())/state/\(appID).state"
    }

    /// The saved text, or `nil` when there is no file yet.
    ///
    /// - Returns: The file's text, or `nil` when it does not exist.
    /// - Throws: ``StateFile/Failure`` when the file exists but cannot be read.
    public func read() throws(Failure) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(function: "open", errno: errno)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(function: "read", errno: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces the file's content with `text` (creating its directory if needed), durably and atomically.
    ///
    /// - Parameter text: The new content.
    /// - Throws: ``StateFile/Failure`` when its folder, the temporary file or the rename fails.
    public func write(_ text: String) throws(Failure) {
        try makeParentDirectories()
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(function: "open", errno: errno) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let failure = Failure(function: "write", errno: errno)
                close(descriptor)
                throw failure
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let failure = Failure(function: "fsync", errno: errno)
            close(descriptor)
            throw failure
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw Failure(function: "rename", errno: errno) }
    }

    private func makeParentDirectories() throws(Failure) {
        let bytes = Array(path.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "/") && index > 0 {
            let directory = String(decoding: bytes[..<index], as: UTF8.self)
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw Failure(function: "mkdir", errno: errno)
            }
        }
    }
}

/// The state as `key=value` lines, the simple format both example apps use.
extension StateFile {
    /// The saved keys and values, or `nil` when there is no file yet. Lines without `=` are skipped.
    ///
    /// - Returns: The keys and values, or `nil` when the file does not exist.
    /// - Throws: ``StateFile/Failure`` when the file exists but cannot be read.
    public func readValues() throws(Failure) -> [String: String]? {
        guard let text = try read() else { return nil }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    /// Replaces the file with one `key=value` line per pair, in order. Keys must not hold `=` or newlines.
    ///
    /// - Parameter values: The pairs, written in order.
    /// - Throws: ``StateFile/Failure`` when the write fails.
    public func write(values: [(key: String, value: String)]) throws(Failure) {
        try write(values.map { "\($0.key)=\($0.value)\n" }.joined())
    }
}
