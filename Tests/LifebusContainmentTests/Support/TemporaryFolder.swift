import Glibc

/// A fresh folder under /tmp for one test, removed with everything in it by `remove()`.
struct TemporaryFolder {
    let path: String

    init() {
        var template = Array("/tmp/lifebus-containment-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `text` to `name` in the folder with `mode`; returns the path.
    @discardableResult
    func write(_ name: String, _ text: String, mode: mode_t = 0o644) -> String {
        let target = file(name)
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC, mode)
        precondition(descriptor >= 0, "cannot write \(target)")
        _ = text.utf8CString.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
        chmod(target, mode)
        return target
    }

    /// The text of `name`, or `nil` when it does not exist.
    func read(_ name: String) -> String? {
        readText(file(name))
    }

    func remove() {
        _ = system("rm -rf '\(path)'")
    }
}

/// The text of the file at `path`, or `nil` when it does not exist.
func readText(_ path: String) -> String? {
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
