import Glibc
import LifebusIO

/// Removing a private broker's temporary folder once the broker has gone: what it leaves there (socket, lock file,
/// token, journal and its rotations), its `logs` folder of installed apps' logs (§16.4) and the `state` folder its
/// apps saved their state in (`BrokerLaunch.freshAppState`), whatever the apps made there. Stateless.
enum BrokerFolder {
    /// The apps' state folder's name (`BrokerLaunch.freshAppState`).
    static let appState = "state"

    static func remove(_ folder: String) {
        removeTree(folder)
    }

    /// Removes `path` and, when it is a folder (not a link to one), everything in it first.
    private static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        for name in names(in: path) { removeTree("\(path)/\(name)") }
        rmdir(path)
    }

    /// The names in `folder` but `.` and `..` (none when it cannot be read).
    static func names(in folder: String) -> [String] {
        FolderEntries.names(in: folder) ?? []
    }
}
