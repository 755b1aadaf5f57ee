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

    /// Why a symbolic link met on the way to `path` is not to be followed: one another user owns (they could point
    /// it elsewhere at any time). Every link is met: those on the path as written and those inside each link's
    /// target, resolved component by component as the kernel does (at most `maxLinks`, as its `ELOOP` limit).
    private static func linkProblem(_ path: String, uid: uid_t) -> String? {
        var folder = path.hasPrefix("/") ? "" : "."
        var pending = path.split(separator: "/").map(String.init).reversed() as [String]
        var links = 0
        while let component = pending.popLast() {
            if component == "." { continue }
            let candidate = folder + "/" + component
            var status = stat()
            guard lstat(candidate, &status) == 0 else { return nil }  // missing: the caller's own check reports it
            guard status.st_mode & S_IFMT == S_IFLNK else {
                folder = candidate
                continue
            }
            if status.st_uid != uid, status.st_uid != 0 {
                let owner = PrivateFolder.userText(status.st_uid)
                return "\(candidate) is a symbolic link of \(owner), not of \(expected(uid))"
            }
            links += 1
            guard links <= maxLinks, let target = linkTarget(candidate) else { return nil }  // realpath reports it
            if target.hasPrefix("/") { folder = "" }
            pending += target.split(separator: "/").map(String.init).reversed()
        }
        return nil
    }

    /// The kernel's limit on links followed while resolving one path (`ELOOP` past it).
    static let maxLinks = 40

    private static func linkTarget(_ link: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(link, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
