import Glibc

/// Whether a folder is one user's alone: the rule the broker applies to the private folder it creates in a shared
/// place (`/tmp/lifebus-$UID`) and the logs folder beside its journal, and every client to the default socket's
/// folder before it connects there (`Protocol/README.md` §1, "Trust rules").
///
/// Stateless. A folder is private when `lstat` finds a real directory (not a symbolic link), owned by the uid asked
/// about, with no group or other permission bits. Anything else is refused, never repaired: nobody can know what
/// another user did there.
public enum PrivateFolder {
    /// Why a folder is not private.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// `lstat` failed (`ENOENT` when nothing is there).
        case cannotInspect(errno: Int32)
        case symbolicLink
        case notADirectory
        /// Another user owns it: their uid.
        case ownedBy(uid: UInt32, expected: UInt32)
        /// Others may use it: its permission bits.
        case openToOthers(mode: UInt32)

        public var description: String {
            switch self {
            case .cannotInspect(let code): "cannot inspect it: \(String(cString: strerror(code)))"
            case .symbolicLink: "it is a symbolic link, not a directory of our own"
            case .notADirectory: "it is not a directory"
            case .ownedBy(let uid, let expected):
                "it belongs to \(PrivateFolder.userText(uid)), not to \(PrivateFolder.userText(expected))"
            case .openToOthers(let mode): "other users may use it (mode \(String(mode, radix: 8)); 700 expected)"
            }
        }
    }

    /// Why the folder at `path` is not `uid`'s alone (this process's real uid when `nil`), or `nil` when it is.
    public static func problem(_ path: String, uid: UInt32? = nil) -> Problem? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .cannotInspect(errno: errno) }
        return problem(status, uid: uid ?? getuid())
    }

    /// Opens the folder at `path` (never through a link) and checks what was opened, so nothing can be swapped in
    /// between the check and the use: the descriptor (the caller closes it), or why the folder is not `uid`'s alone.
    public static func open(_ path: String, uid: UInt32? = nil) -> Result<Int32, Problem> {
        let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            guard code == ELOOP || code == ENOTDIR else { return .failure(.cannotInspect(errno: code)) }
            return .failure(problem(path, uid: uid) ?? .notADirectory)  // a link or a file: `lstat` says which
        }
        var status = stat()
        let found = fstat(descriptor, &status) == 0
            ? problem(status, uid: uid ?? getuid()) : .cannotInspect(errno: errno)
        guard let found else { return .success(descriptor) }
        close(descriptor)
        return .failure(found)
    }

    private static func problem(_ status: stat, uid: UInt32) -> Problem? {
        switch status.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return .symbolicLink
        default: return .notADirectory
        }
        guard status.st_uid == uid else { return .ownedBy(uid: status.st_uid, expected: uid) }
        let mode = UInt32(status.st_mode & 0o777)
        return mode & 0o077 == 0 ? nil : .openToOthers(mode: mode)
    }

    /// `uid 1000 (alice)`, or `uid 1000` when the user database has no name for it.
    public static func userText(_ uid: UInt32) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(uid, &entry, &buffer, buffer.count, &found)
        guard status == 0, found != nil, let name = entry.pw_name else { return "uid \(uid)" }
        return "uid \(uid) (\(String(cString: name)))"
    }
}
