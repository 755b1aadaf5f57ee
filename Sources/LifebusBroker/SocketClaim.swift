import Glibc

/// The broker's hold on its socket path for as long as it serves there: an exclusive `flock` on `PATH.lock`, taken
/// before anything at the path is inspected, and the identity (device, inode) of the socket it bound.
///
/// Bound to the broker's loop. Invariants: at most one live broker holds a path's lock, so two brokers started at
/// once cannot both pass the stale-socket check; the broker removes the socket at the path only while it is still
/// the one it bound (never a socket another broker put there); the lock file itself is never removed (removing it
/// would let a second holder lock a fresh file while the first still holds the old one).
final class SocketClaim {
    let path: String
    private var lockDescriptor: Int32
    private var bound: (device: UInt64, inode: UInt64)?

    private init(path: String, lockDescriptor: Int32) {
        self.path = path
        self.lockDescriptor = lockDescriptor
    }

    deinit {
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    /// Locks `path.lock` (created with mode 0600, never through a symlink), then clears a stale socket at `path`.
    /// Throws `anotherBrokerHolds` when a live broker has the lock; the loser touches nothing.
    static func take(_ path: String) throws(SocketFile.Problem) -> SocketClaim {
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .cannotInspect(lockPath, errno: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            throw code == EWOULDBLOCK ? .anotherBrokerHolds(path) : .cannotInspect(lockPath, errno: code)
        }
        let claim = SocketClaim(path: path, lockDescriptor: descriptor)
        try SocketFile.prepare(path)
        return claim
    }

    /// Remembers the socket now at the path as the one this broker bound (call right after binding).
    func noteBound() {
        bound = Self.identity(of: path)
    }

    /// Removes the socket if it is still the one this broker bound, and lets the lock go.
    func release() {
        if let bound, let current = Self.identity(of: path), current == bound {
            unlink(path)
        }
        bound = nil
        if lockDescriptor >= 0 {
            close(lockDescriptor)
            lockDescriptor = -1
        }
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }
}
