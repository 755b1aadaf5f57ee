public import Glibc

/// Why a `ProtectedFile` read or write failed: the call that failed, the file, and its `errno` as a
/// `POSIXErrorCode`. A locked file fails with `.EPERM` ("Operation not permitted"), the code iOS's
/// `NSPOSIXErrorDomain` error carries inside Cocoa's 257 (read) and 513 (write) — SCENES.md §6. (The SDK does not
/// import Foundation, so this is its own error rather than Foundation's `POSIXError`; compare `code`.)
///
/// A plain value. Invariant: `lockedByDataProtection` is `true` only for the refusal the SDK makes itself while the
/// data is unavailable (always with `.EPERM`), never for a failure the system returned.
public struct ProtectedFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed: `open`, `read`, `write`, `fsync`, `rename`.
    public let function: String
    /// The file's path.
    public let path: String
    /// The error number.
    public let code: POSIXErrorCode
    /// The file's protection class kept it locked: the device is locked and protected data is unavailable.
    public let lockedByDataProtection: Bool

    init(_ function: String, path: String, errno number: Int32) {
        self.function = function
        self.path = path
        code = POSIXErrorCode(rawValue: number) ?? .EIO
        lockedByDataProtection = false
    }

    /// The refusal of a `function` on a locked file.
    static func locked(_ function: String, path: String) -> ProtectedFileError {
        ProtectedFileError(function: function, path: path, code: .EPERM, lockedByDataProtection: true)
    }

    private init(function: String, path: String, code: POSIXErrorCode, lockedByDataProtection: Bool) {
        self.function = function
        self.path = path
        self.code = code
        self.lockedByDataProtection = lockedByDataProtection
    }

    public var description: String {
        let reason = String(cString: strerror(code.rawValue))
        let locked = lockedByDataProtection ? " (protected data is unavailable: the device is locked)" : ""
        return "\(function) \(path): \(reason)\(locked)"
    }
}
