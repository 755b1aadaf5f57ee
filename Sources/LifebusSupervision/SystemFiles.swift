import Glibc

/// Whole-file reads and folder listings through Glibc alone (the broker has no Foundation).
///
/// Stateless. Every read is bounded: a file longer than the limit is refused (`EFBIG`), so a stray huge file
/// costs at most the limit.
public enum SystemFiles {
    /// The bytes of `path`, at most `limit` of them; `EFBIG` when there are more. Reads into one buffer of
    /// `limit + 1` bytes (the files read here are small: `/proc` records, manifests).
    public static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError("open", path: path) }
        defer { close(descriptor) }
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: limit + 1) { buffer, count in
            count = 0
            while count <= limit {
                let step = Glibc.read(descriptor, buffer.baseAddress! + count, limit + 1 - count)
                if step < 0, errno == EINTR { continue }
                if step < 0 { failure = errno }
                if step <= 0 { return }
                count += step
            }
        }
        if let failure { throw SystemError("read", path: path, code: failure) }
        guard bytes.count <= limit else { throw SystemError("read", path: path, code: EFBIG) }
        return bytes
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

    /// Why `path` cannot be run, or `nil`: missing (`ENOENT`), not executable or a folder (`EACCES`).
    static func executableProblem(_ path: String) -> SystemError? {
        if access(path, X_OK) != 0 { return SystemError("access", path: path) }
        if isFolder(path) { return SystemError("exec", path: path, code: EACCES) }
        return nil
    }

    /// Whether `path` names a folder.
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
