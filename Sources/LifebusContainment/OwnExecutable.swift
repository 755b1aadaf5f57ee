import Glibc

/// This program's own executable: `/proc/self/exe`, which stays this program even after its file was replaced or
/// removed (its target then reads `PATH (deleted)`). The one place the broker and `subscribe` ask. Stateless.
public enum OwnExecutable {
    /// The link to run to start this program again (the containment guard): valid whatever happened to the file.
    public static let link = "/proc/self/exe"

    /// The path this program was started from (without the kernel's ` (deleted)` mark); `nil` when unreadable.
    public static var path: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let length = readlink(link, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let deleted = " (deleted)"
        return target.hasSuffix(deleted) ? String(target.dropLast(deleted.count)) : target
    }
}
