import Glibc
import LifebusIO

/// Whole-file reads and folder listings through Glibc alone (the broker has no Foundation).
///
/// Stateless. Every read is bounded and never blocks the broker's loop: a file is opened `O_NONBLOCK` (a FIFO
/// opens at once instead of waiting for a writer), checked with `fstat` to be a regular file (a FIFO, a device
/// such as `/dev/zero`, a folder are refused), and refused (`EFBIG`) when it says it is longer than the limit
/// before a byte is read; the read itself stops at the limit too (`/proc` files say size 0).
public enum SystemFiles {
    /// The bytes of the regular file `path`, at most `limit` of them; `EFBIG` when there are more. With
    /// `followingLinks: false`, a symbolic link at `path` is refused (`O_NOFOLLOW`). Reads into one buffer of
    /// `limit + 1` bytes (the files read here are small: `/proc` records, manifests).
    public static func read(_ path: String, limit: Int, followingLinks: Bool = true) throws(SystemError) -> [UInt8] {
        let (descriptor, size) = try openRegular(path, flags: O_RDONLY | (followingLinks ? 0 : O_NOFOLLOW))
        defer { close(descriptor) }
        guard size <= limit else {
            throw SystemError(refusing: path, "it holds \(size) bytes, more than the \(limit) allowed", code: EFBIG)
        }
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: limit + 1) { buffer, count in
            count = 0
            while count <= limit {
                let step = Glibc.read(descriptor, buffer.baseAddress! + count, limit + 1 - count)
                if step < 0, errno == EINTR { continue }
                if step < 0 { failure = errno }
                if step <= 0 { return }
                count += step
            }
        }
        if let failure { throw SystemError("read", path: path, code: failure) }
        guard bytes.count <= limit else {
            throw SystemError(refusing: path, "it holds more than the \(limit) bytes allowed", code: EFBIG)
        }
        return bytes
    }

    /// Opens `name` in the folder open as `folder` (`AT_FDCWD`: `name` is a path) with `flags` plus `O_NONBLOCK`
    /// and `O_CLOEXEC`, and checks it is a regular file; returns the descriptor (the caller closes it) and the
    /// file's size. `path` names it in errors. With `O_NOFOLLOW` in `flags`, a symbolic link is refused as one.
    static func openRegular(
        _ path: String, in folder: Int32 = AT_FDCWD, name: String? = nil, flags: Int32, mode: mode_t = 0
    ) throws(SystemError) -> (descriptor: Int32, size: Int) {
        let descriptor = openat(folder, name ?? path, flags | O_NONBLOCK | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP, flags & O_NOFOLLOW != 0 {
                throw SystemError(refusing: path, "it is a symbolic link (links are not followed here)", code: ELOOP)
            }
            throw SystemError("open", path: path, code: code)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = SystemError("fstat", path: path)
            close(descriptor)
            throw failure
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw SystemError(refusing: path, "it is \(kind(of: status.st_mode)), not a regular file", code: EINVAL)
        }
        return (descriptor, Int(status.st_size))
    }

    /// What a file's type bits say it is, for messages: "a FIFO", "a folder", "a character device"…
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a regular file"
        }
    }

    /// The names in folder `path` (without `.` and `..`), in no particular order.
    package static func names(in path: String) throws(SystemError) -> [String] {
        guard let names = FolderEntries.names(in: path) else { throw SystemError("opendir", path: path) }
        return names
    }

    /// Why `path` cannot be run, or `nil`: missing (`ENOENT`), not executable or a folder (`EACCES`).
    package static func executableProblem(_ path: String) -> SystemError? {
        if access(path, X_OK) != 0 { return SystemError("access", path: path) }
        if isFolder(path) { return SystemError("exec", path: path, code: EACCES) }
        return nil
    }

    /// Whether `path` names a folder.
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
