public import Glibc

/// A fresh folder under /tmp for one test (named after `prefix`), removed with everything in it by `remove()`.
/// Shared by the test targets that write files for the code under test (containment, supervision).
public struct TemporaryFolder: Sendable {
    public let path: String

    public init(prefix: String = "lifebus-test") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `text` to `name` in the folder with `mode`; returns the path.
    @discardableResult
    public func write(_ name: String, _ text: String, mode: mode_t = 0o644) -> String {
        let target = file(name)
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC, mode)
        precondition(descriptor >= 0, "cannot write \(target)")
        _ = text.utf8CString.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
        chmod(target, mode)
        return target
    }

    /// The text of `name`, or `nil` when it does not exist.
    public func read(_ name: String) -> String? {
        readText(file(name))
    }

    public func remove() {
        _ = system("rm -rf '\(path)'")
    }
}

/// The text of the file at `path`, or `nil` when it does not exist.
public func readText(_ path: String) -> String? {
    guard let handle = fopen(path, "r") else { return nil }
    defer { fclose(handle) }
    var bytes: [UInt8] = []
    while true {
        let byte = fgetc(handle)
        if byte == EOF { break }
        bytes.append(UInt8(byte))
    }
    return String(decoding: bytes, as: UTF8.self)
}
