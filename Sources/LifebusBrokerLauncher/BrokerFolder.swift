import Glibc
import LifebusIO

/// Removing a private broker's temporary folder once the broker has gone: what it leaves there (socket, lock file,
/// token, journal and its rotations) and its `logs` folder of installed apps' logs (§16.4). Stateless.
enum BrokerFolder {
    /// The folder's sub-folders that are removed with their files; anything else in it is a file.
    static let subfolders: Set<String> = ["logs"]

    static func remove(_ folder: String) {
        for name in names(in: folder) {
            if subfolders.contains(name) {
                for file in names(in: "\(folder)/\(name)") { unlink("\(folder)/\(name)/\(file)") }
                rmdir("\(folder)/\(name)")
            } else {
                unlink("\(folder)/\(name)")
            }
        }
        rmdir(folder)
    }

    /// The names in `folder` but `.` and `..` (none when it cannot be read).
    static func names(in folder: String) -> [String] {
        FolderEntries.names(in: folder) ?? []
    }
}
