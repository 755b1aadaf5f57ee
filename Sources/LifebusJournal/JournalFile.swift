import Glibc

/// The journal's open file: appends whole lines, syncs, rotates and reopens; never leaves a partial line behind
/// a write it reports as failed.
///
/// Owns the file descriptor (`-1` while the file cannot be opened: every write then fails with the saved errno
/// and retries the open first). Bound to the broker's loop. Invariant: in a regular file, `size` bytes of whole
/// lines are on disk; a write that fails after partial progress is cut back to `size` (and, until that cut
/// succeeds, nothing more is written).
final class JournalFile {
    let path: String
    private var descriptor: Int32 = -1
    private var openError: Int32 = 0
    /// Bytes of whole lines in the file.
    private(set) var size = 0
    /// Whether the path is a regular file (only those are recovered, cut back and rotated; `/dev/full` is not).
    private(set) var isRegular = false
    /// A failed write left bytes past `size` that are not cut off yet.
    private var hasTornTail = false

    /// Opens (creating, mode 0600, with its folders) the file at `path`.
    init(path: String) throws(JournalError) {
        self.path = path
        Self.makeParentFolders(of: path)
        if let code = open() { throw JournalError(path: path, code: code) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Cuts a torn last line (a broker killed mid-write) and finds the `seq` of the last whole line.
    func recover() -> JournalRecovery {
        guard isRegular, size > 0 else { return JournalRecovery(cutBytes: 0, lastSequence: nil) }
        let recovery = JournalRecovery.scan(size: size) { offset, count in self.read(at: offset, count: count) }
        if recovery.cutBytes > 0 {
            let whole = size - recovery.cutBytes
            if ftruncate(descriptor, off_t(whole)) == 0 {
                size = whole
            } else {
                hasTornTail = true  // cut before the next write
            }
        }
        return recovery
    }

    /// The `seq` of the newest whole line of the rotated files `path.1` … `path.<rotatedFilesKept>`, newest file
    /// first: where a run continues when `path` holds no whole line (a broker killed between a rotation's rename
    /// and its first write left `path` missing, empty or torn). Rotated files are only read, never cut.
    func lastRotatedSequence() -> Int64? {
        for number in 1...Self.rotatedFilesKept {
            if let seq = Self.lastSequence(ofFileAt: "\(path).\(number)") { return seq }
        }
        return nil
    }

    /// The `seq` of the last whole line of the regular file at `path` (not followed through a link), if any.
    private static func lastSequence(ofFileAt path: String) -> Int64? {
        let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else {
            return nil
        }
        return JournalRecovery.scan(size: Int(status.st_size)) { offset, count in
            read(descriptor, at: offset, count: count)
        }.lastSequence
    }

    /// Appends `bytes` (whole lines); returns the errno of a failure, `nil` when all of them are in the file.
    func append(_ bytes: [UInt8]) -> Int32? {
        if descriptor < 0, let code = open() { return code }
        if hasTornTail {
            guard ftruncate(descriptor, off_t(size)) == 0 else { return errno }
            hasTornTail = false
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let code = written < 0 ? errno : ENOSPC
                if offset > 0 && isRegular {
                    hasTornTail = ftruncate(descriptor, off_t(size)) != 0
                }
                return code
            }
            offset += written
        }
        size += bytes.count
        return nil
    }

    /// fdatasync(2); returns the errno of a failure.
    func sync() -> Int32? {
        guard descriptor >= 0 else { return openError }
        while fdatasync(descriptor) != 0 {
            guard errno == EINTR else { return errno }
        }
        return nil
    }

    /// fsync(2) of the folder holding the file, so a new or renamed file's name is on disk too; returns the errno.
    func syncFolder() -> Int32? {
        let folder = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let descriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return fsync(descriptor) == 0 ? nil : errno
    }

    /// Closes the file and opens `path` again (what logrotate moved away is left alone); returns an open error.
    func reopen() -> Int32? {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        return open()
    }

    /// How many rotated files are kept: `path.1` (the newest) … `path.3`.
    static let rotatedFilesKept = 3

    /// Renames `path` to `path.1` (and `.1` to `.2`…, dropping the oldest beyond `rotatedFilesKept`) and starts a
    /// new file; returns the errno of a failure (the file is then kept as it is, or its open retried on the next
    /// write).
    func rotate() -> Int32? {
        guard isRegular else { return nil }
        for number in stride(from: Self.rotatedFilesKept - 1, through: 1, by: -1) {
            _ = rename("\(path).\(number)", "\(path).\(number + 1)")  // a missing older file is fine
        }
        guard rename(path, "\(path).1") == 0 else { return errno }
        return reopen()
    }

    private func open() -> Int32? {
        // Read as well as written: recovery reads the file's end.
        descriptor = Glibc.open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            openError = errno
            return openError
        }
        var status = stat()
        fstat(descriptor, &status)
        isRegular = (status.st_mode & S_IFMT) == S_IFREG
        size = isRegular ? Int(status.st_size) : 0
        hasTornTail = false
        return nil
    }

    private func read(at offset: Int, count: Int) -> [UInt8] {
        Self.read(descriptor, at: offset, count: count)
    }

    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes[done...].withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress, $0.count, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return Array(bytes[..<done])
    }

    private static func makeParentFolders(of path: String) {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: false).dropLast() {
            prefix += (prefix.isEmpty && path.hasPrefix("/") && component.isEmpty) ? "/" : "\(component)/"
            if !component.isEmpty { mkdir(prefix, 0o700) }
        }
    }
}

/// The journal file could not be opened.
public struct JournalError: Error, CustomStringConvertible {
    public let path: String
    public let code: Int32
    public var description: String { "cannot open the journal \(path): \(String(cString: strerror(code)))" }
}
