import Glibc

/// Makes sure a folder in a shared place (the `/tmp/lifebus-$UID` default) is this user's alone before the broker
/// puts its socket or journal there.
///
/// Stateless. `ensure` creates the folder with mode 0700 when it is missing, then checks with `lstat` what is there:
/// a real directory (not a symlink), owned by the broker's uid, with no group or other permission bits. Anything
/// else — a folder another user made first, a symlink planted in its place, a folder left open — is refused, never
/// repaired: the broker cannot know what was done there.
enum PrivateDirectory {
    static func ensure(_ path: String) throws(SocketFile.Problem) {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .cannotInspect(path, errno: errno)
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .cannotInspect(path, errno: errno) }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            break
        case S_IFLNK:
            throw .unsafeDirectory(path, "it is a symbolic link, not a directory of our own")
        default:
            throw .unsafeDirectory(path, "it is not a directory")
        }
        guard status.st_uid == getuid() else {
            throw .unsafeDirectory(path, "it belongs to uid \(status.st_uid), not to uid \(getuid())")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw .unsafeDirectory(path, "other users may use it (mode \(String(mode, radix: 8)); 700 expected)")
        }
    }
}

extension Broker {
    /// Ensures the configured private folder when the socket or the journal lies in it.
    func ensurePrivateDirectory() throws(SocketFile.Problem) {
        guard let directory = configuration.privateDirectory else { return }
        let inside = [configuration.socketPath, configuration.journalPath ?? ""].contains {
            $0.hasPrefix(directory + "/")
        }
        if inside { try PrivateDirectory.ensure(directory) }
    }
}
