import Glibc
import LifebusIO

/// Makes sure a folder in a shared place (the `/tmp/lifebus-$UID` default) is this user's alone before the broker
/// puts its socket or journal there.
///
/// Stateless. `ensure` creates the folder with mode 0700 when it is missing, then checks it as `PrivateFolder` does
/// (the rule clients apply too): a real directory (not a symlink), owned by the broker's uid, with no group or other
/// permission bits. Anything else — a folder another user made first, a symlink planted in its place, a folder left
/// open — is refused, never repaired: the broker cannot know what was done there.
enum PrivateDirectory {
    static func ensure(_ path: String) throws(SocketFile.Problem) {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .cannotInspect(path, errno: errno)
        }
        switch PrivateFolder.problem(path) {
        case nil: return
        case .cannotInspect(let code)?: throw .cannotInspect(path, errno: code)
        case let problem?: throw .unsafeDirectory(path, "\(problem)")
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
