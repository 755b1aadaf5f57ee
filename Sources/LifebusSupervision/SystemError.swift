import Glibc

/// A failed system call on a path: what was called, on what, and the `errno` it left.
///
/// A plain value. Its description names all three, e.g. `open /apps/x.json: No such file or directory (errno 2)`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let function: String
    public let path: String
    public let code: Int32

    /// `code` defaults to the current `errno`.
    public init(_ function: String, path: String, code: Int32? = nil) {
        self.function = function
        self.path = path
        self.code = code ?? errno
    }

    public var description: String {
        "\(function) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}
