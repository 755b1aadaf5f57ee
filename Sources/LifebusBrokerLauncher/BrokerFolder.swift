import Glibc

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
    private static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
