import Glibc
import LifebusIO

/// Where each app's stdout and stderr go, and the bound on them.
///
/// A plain value. Scheme: the folder `logs/` beside the broker's journal (`folder(besideJournal:)`), in it
/// `<app id>.log` (appended to by every run of the app) and one previous generation `<app id>.log.1`. Bound: when a
/// log holds more than `maxBytes`, `rotate` copies it over the previous generation and empties it (the app keeps
/// appending to the same file, its `O_APPEND` writes land at the new end), so an app's logs take at most
/// 2 × `maxBytes` plus what it writes between two checks. The broker checks at each launch (`prepare`) and may
/// check on its memory-sampling period (`rotateIfOver`). Lines written while a rotation copies may be lost.
/// Trust: the broker may run as root with its journal in a shared folder, so the folder must be its user's alone
/// (created 0700, or refused as the private folder is) and every log is opened by name in it with `O_NOFOLLOW`
/// and checked to be a regular file: a link planted there is refused, never written through.
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

    /// Before a launch: creates the folder (mode 0700) if needed, checks it is the broker's alone, rotates an
    /// over-bound log and creates the log (a regular file, never through a link). Returns the path.
    public func prepare(for appID: String) throws(SystemError) -> String {
        let folderDescriptor = try openFolder()
        defer { close(folderDescriptor) }
        _ = try rotateIfOver(appID, in: folderDescriptor)
        let (log, _) = try SystemFiles.openRegular(
            path(for: appID), in: folderDescriptor, name: "\(appID).log",
            flags: O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, mode: 0o640)
        close(log)
        return path(for: appID)
    }

    /// Rotates the app's log when it holds more than `maxBytes`; returns whether it did.
    @discardableResult
    public func rotateIfOver(for appID: String) throws(SystemError) -> Bool {
        let folderDescriptor = try openFolder()
        defer { close(folderDescriptor) }
        return try rotateIfOver(appID, in: folderDescriptor)
    }

    /// Creates the folder 0700 when missing; opens it (never through a link) and keeps it open only when what was
    /// opened is a directory of the broker's user alone (the rule of the private folder: `PrivateFolder`), so
    /// another user can neither have planted links in it nor add any, nor swap it after the check.
    private func openFolder() throws(SystemError) -> Int32 {
        if mkdir(folder, 0o700) != 0, errno != EEXIST { throw SystemError("mkdir", path: folder) }
        switch PrivateFolder.open(folder) {
        case .success(let descriptor):
            return descriptor
        case .failure(.cannotInspect(let code)):
            throw SystemError("open", path: folder, code: code)
        case .failure(let problem):
            throw SystemError(refusing: folder, "the apps' logs folder must be this user's alone: \(problem)")
        }
    }

    /// The rotation, every file opened by name in `folderDescriptor` with `O_NOFOLLOW`: the live log copied over
    /// the previous generation (a regular file with one link, truncated only once checked) and emptied.
    private func rotateIfOver(_ appID: String, in folderDescriptor: Int32) throws(SystemError) -> Bool {
        let live: (descriptor: Int32, size: Int)
        do throws(SystemError) {
            live = try SystemFiles.openRegular(
                path(for: appID), in: folderDescriptor, name: "\(appID).log", flags: O_RDWR | O_NOFOLLOW)
        } catch let error where error.code == ENOENT && error.refusal == nil {
            return false
        }
        defer { close(live.descriptor) }
        guard live.size > maxBytes else { return false }
        let target = previousPath(for: appID)
        let (previous, _) = try SystemFiles.openRegular(
            target, in: folderDescriptor, name: "\(appID).log.1", flags: O_WRONLY | O_CREAT | O_NOFOLLOW, mode: 0o640)
        defer { close(previous) }
        var status = stat()
        guard fstat(previous, &status) == 0 else { throw SystemError("fstat", path: target) }
        guard status.st_nlink == 1 else {
            throw SystemError(refusing: target, "it has \(status.st_nlink) links; a log has one")
        }
        guard ftruncate(previous, 0) == 0 else { throw SystemError("ftruncate", path: target) }
        try copy(live.size, of: live.descriptor, from: path(for: appID), to: previous, target)
        guard ftruncate(live.descriptor, 0) == 0 else { throw SystemError("ftruncate", path: path(for: appID)) }
        return true
    }

    /// Copies the first `size` bytes of `input` (its size when checked: an app appending meanwhile cannot keep the
    /// loop copying; what it appends during the copy is emptied with the rest).
    private func copy(
        _ size: Int, of input: Int32, from source: String, to output: Int32, _ target: String
    ) throws(SystemError) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var offset = 0
        while offset < size {
            let wanted = min(chunk.count, size - offset)
            let count = chunk.withUnsafeMutableBytes { pread(input, $0.baseAddress, wanted, off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SystemError("read", path: source) }
            if count == 0 { return }
            offset += count
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
