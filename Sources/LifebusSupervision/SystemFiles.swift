import Glibc

/// Whole-file reads and folder listings through Glibc alone (the broker has no Foundation).
///
/// Stateless. Every read is bounded: a file longer than the limit is refused (`EFBIG`), so a stray huge file
/// costs at most the limit.
enum SystemFiles {
    /// The bytes of `path`, at most `limit` of them; `EFBIG` when there are more.
    static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError("open", path: path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError("read", path: path)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw SystemError("read", path: path, code: EFBIG) }
            bytes += chunk[0..<count]
        }
    }

    /// The names in folder `path` (without `.` and `..`), in no particular order.
    static func names(in path: String) throws(SystemError) -> [String] {
        guard let folder = opendir(path) else { throw SystemError("opendir", path: path) }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether `path` names a folder.
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
