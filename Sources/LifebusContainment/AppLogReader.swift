import Glibc

/// Reads an app's log from where it last stopped: what `lifebus logs ID` prints and `--follow` polls.
///
/// A plain value holding the path and the offset read up to. The log is opened as the broker writes it: never
/// through a symbolic link, and only when it is a regular file. When the file shrank (a rotation emptied it) reading
/// starts again from its beginning. Each read returns at most `maxChunk` bytes, so following a fast writer stays
/// bounded per call.
public struct AppLogReader: Sendable {
    public let path: String
    public private(set) var offset: Int
    public static let maxChunk = 1 << 20

    /// Starts at the beginning, or at the end when `fromEnd` (to print only what comes next).
    public init(path: String, fromEnd: Bool = false) {
        self.path = path
        var info = stat()
        offset = fromEnd && stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The bytes appended since the last read (empty when none, or the log does not exist yet).
    public mutating func readNew() throws(SystemError) -> [UInt8] {
        let descriptor: Int32
        let size: Int
        do throws(SystemError) {
            (descriptor, size) = try SystemFiles.openRegular(path, flags: O_RDONLY | O_NOFOLLOW)
        } catch let error where error.code == ENOENT && error.refusal == nil {
            return []
        }
        defer { close(descriptor) }
        if size < offset { offset = 0 }  // rotated: the live file was emptied
        let wanted = min(size - offset, Self.maxChunk)
        guard wanted > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: wanted)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
        guard count >= 0 else { throw SystemError("pread", path: path) }
        offset += count
        return Array(bytes.prefix(count))
    }
}
