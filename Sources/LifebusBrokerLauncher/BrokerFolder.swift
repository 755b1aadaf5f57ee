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
    static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset)
                .assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Where `d_name` starts in a `dirent`. The name is read up to its NUL through a pointer, never as the struct's
    /// 256-byte array: a record is only as long as its name, and the last one in `readdir`'s buffer may end at
    /// the end of mapped memory.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
}
