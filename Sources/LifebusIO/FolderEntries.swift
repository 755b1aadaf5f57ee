import Glibc

/// The entries of a folder, read with `readdir`: the one place that reads a `dirent`'s name. Stateless.
///
/// A name is read through a pointer up to its NUL, never by copying `d_name` as the struct's 256-byte array: a
/// record in `readdir`'s buffer is only as long as its name, so the array of the last record can run past the end
/// of mapped memory (a SIGSEGV in `memcpy`, seen listing `/tmp`).
public enum FolderEntries {
    /// The names in `folder` but `.` and `..`, in `readdir`'s order; `nil` when `opendir` fails (`errno` says why).
    public static func names(in folder: String) -> [String]? {
        var names: [String] = []
        let opened = forEach(in: folder) { name, _ in
            let text = String(decoding: name, as: UTF8.self)
            if text != "." && text != ".." { names.append(text) }
        }
        return opened ? names : nil
    }

    /// Removes `path` and, when it is a folder (not a link to one: a link is removed, never followed), everything in
    /// it first. Best effort: what cannot be removed stays, silently (a folder someone else still writes in).
    public static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        for name in names(in: path) ?? [] { removeTree("\(path)/\(name)") }
        rmdir(path)
    }

    /// Calls `body` with each entry's name (its bytes without the NUL, `.` and `..` included; valid only during the
    /// call) and inode (`d_ino`). Returns `false` when `opendir` fails (`errno` says why), without calling `body`.
    public static func forEach(
        in folder: String, _ body: (_ name: UnsafeBufferPointer<UInt8>, _ inode: UInt64) -> Void
    ) -> Bool {
        guard let directory = opendir(folder) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            body(name(of: entry), UInt64(entry.pointer(to: \.d_ino)!.pointee))
        }
        return true
    }

    /// The bytes of `entry`'s name up to its NUL, read in place (valid as long as the entry is).
    static func name(of entry: UnsafePointer<dirent>) -> UnsafeBufferPointer<UInt8> {
        let start = UnsafeRawPointer(entry.pointer(to: \.d_name)!)
        let length = strlen(start.assumingMemoryBound(to: CChar.self))
        return UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: length)
    }
}
