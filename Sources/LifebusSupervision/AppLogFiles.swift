import Glibc

/// Where each app's stdout and stderr go, and the bound on them.
///
/// A plain value. Scheme: the folder `logs/` beside the broker's journal (`folder(besideJournal:)`), in it
/// `<app id>.log` (appended to by every run of the app) and one previous generation `<app id>.log.1`. Bound: when a
/// log holds more than `maxBytes`, `rotate` copies it over the previous generation and empties it (the app keeps
/// appending to the same file, its `O_APPEND` writes land at the new end), so an app's logs take at most
/// 2 × `maxBytes` plus what it writes between two checks. The broker checks at each launch (`prepare`) and may
/// check on its memory-sampling period (`rotateIfOver`). Lines written while a rotation copies may be lost.
public struct AppLogFiles: Sendable, Equatable {
    public let folder: String
    public let maxBytes: Int

    /// The default bound of one generation.
    public static let defaultMaxBytes = 8 << 20

    public init(folder: String, maxBytes: Int = defaultMaxBytes) {
        self.folder = folder
        self.maxBytes = maxBytes
    }

    /// `logs` beside the journal file at `journalPath`.
    public static func folder(besideJournal journalPath: String) -> String {
        guard let slash = journalPath.lastIndex(of: "/") else { return "logs" }
        return String(journalPath[..<slash]) + "/logs"
    }

    /// The log the app's current and next runs append to.
    public func path(for appID: String) -> String { "\(folder)/\(appID).log" }

    /// The previous generation.
    public func previousPath(for appID: String) -> String { path(for: appID) + ".1" }

    /// Before a launch: creates the folder (mode 0700) if needed and rotates an over-bound log. Returns the path.
    public func prepare(for appID: String) throws(SystemError) -> String {
        if mkdir(folder, 0o700) != 0, errno != EEXIST { throw SystemError("mkdir", path: folder) }
        try rotateIfOver(for: appID)
        return path(for: appID)
    }

    /// Rotates the app's log when it holds more than `maxBytes`; returns whether it did.
    @discardableResult
    public func rotateIfOver(for appID: String) throws(SystemError) -> Bool {
        let live = path(for: appID)
        var info = stat()
        guard stat(live, &info) == 0, Int(info.st_size) > maxBytes else { return false }
        try copy(live, to: previousPath(for: appID))
        guard truncate(live, 0) == 0 else { throw SystemError("truncate", path: live) }
        return true
    }

    private func copy(_ source: String, to target: String) throws(SystemError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw SystemError("open", path: source) }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard output >= 0 else { throw SystemError("open", path: target) }
        defer { close(output) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SystemError("read", path: source) }
            if count == 0 { return }
            var written = 0
            while written < count {
                let step = chunk.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0, errno == EINTR { continue }
                guard step > 0 else { throw SystemError("write", path: target) }
                written += step
            }
        }
    }
}
