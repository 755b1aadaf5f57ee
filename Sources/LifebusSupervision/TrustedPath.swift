import Glibc
import LifebusIO

/// Whether another user could change a file or folder the broker reads or runs: the rule of sshd's `StrictModes`,
/// applied to `--apps DIR`, each manifest and each executable (`Protocol/README.md` "Trust rules").
///
/// Stateless. A path is trusted when every symbolic link on the way to it belongs to the broker's user or root,
/// and the file it resolves to and every folder above that, up to `/`, belong to the broker's user or root and
/// cannot be written by their group or others. One exception, for `/tmp`: a folder above that is root's and
/// sticky (`S_ISVTX`) may be writable by all, since nobody can then rename or remove what another user has in it.
enum TrustedPath {
    /// Why `path` cannot be trusted (naming the file or folder at fault), or `nil`. A path that does not exist
    /// (yet) is not judged here: the caller's own check reports it.
    static func problem(_ path: String, uid: uid_t = geteuid()) -> String? {
        if let problem = linkProblem(path, uid: uid) { return problem }
        guard let resolved = realPath(path) else { return nil }
        var current = resolved
        var isTarget = true
        while true {
            var status = stat()
            guard stat(current, &status) == 0 else {
                return "cannot inspect \(current): \(String(cString: strerror(errno)))"
            }
            if status.st_uid != uid, status.st_uid != 0 {
                let place = isTarget && current == path ? "it" : current
                return "\(place) belongs to \(PrivateFolder.userText(status.st_uid)), not to \(expected(uid))"
            }
            let mode = UInt32(status.st_mode & 0o7777)
            let sharedSticky = !isTarget && status.st_uid == 0 && mode & UInt32(S_ISVTX) != 0
            if mode & 0o022 != 0, !sharedSticky {
                let who = mode & 0o022 == 0o022 ? "its group and others" : mode & 0o020 != 0 ? "its group" : "others"
                let place = isTarget && current == path ? "it" : current
                return "\(place) may be changed by \(who) (mode \(String(mode & 0o777, radix: 8)))"
            }
            guard current != "/", let slash = current.lastIndex(of: "/") else { return nil }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
            isTarget = false
        }
    }

    /// Why a symbolic link on the way to `path` is not to be followed: one another user owns (they could point it
    /// elsewhere at any time).
    private static func linkProblem(_ path: String, uid: uid_t) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            var status = stat()
            guard lstat(prefix, &status) == 0 else { return nil }
            if status.st_mode & S_IFMT == S_IFLNK, status.st_uid != uid, status.st_uid != 0 {
                let owner = PrivateFolder.userText(status.st_uid)
                return "\(prefix) is a symbolic link of \(owner), not of \(expected(uid))"
            }
        }
        return nil
    }

    private static func expected(_ uid: uid_t) -> String {
        uid == 0 ? "root" : "\(PrivateFolder.userText(uid)) or root"
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
