import Glibc

/// A failed system call on a path: what was called, on what, and the `errno` it left.
///
/// A plain value. Its description names all three, e.g. `open /apps/x.json: No such file or directory (errno 2)`;
/// for a path a check refused, the path and why: `refusing /apps/x.json: it is a FIFO, not a regular file`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let function: String
    public let path: String
    public let code: Int32
    /// Why a path was refused by a check rather than failed by the call (`refusing PATH: REASON`); `nil` otherwise.
    public let refusal: String?

    /// `code` defaults to the current `errno`.
    public init(_ function: String, path: String, code: Int32? = nil) {
        self.function = function
        self.path = path
        self.code = code ?? errno
        refusal = nil
    }

    /// A path refused by a check before `function` would have used it: `reason` says why, `code` classifies it.
    /// `code` defaults to `EPERM`.
    public init(refusing path: String, _ reason: String, function: String = "open", code: Int32? = nil) {
        self.function = function
        self.path = path
        self.code = code ?? EPERM
        refusal = reason
    }

    public var description: String {
        if let refusal { return "refusing \(path): \(refusal)" }
        return "\(function) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}
