import Glibc

/// A file guarded by an iOS data protection class: the counterpart of writing with `.completeFileProtection` (or
/// setting `FileProtectionType`). Its reads and writes fail with `EPERM` (`ProtectedFileError`, `code == .EPERM`)
/// while the device's protected data is unavailable — from about 10 s after `fire sleep` (the profile's
/// `protectedDataLockDelay`) until `fire wake` — as iOS discards the class key after the lock (SCENES.md §6).
///
/// A plain value naming a path and a class; it holds no descriptor between calls (`open()` gives one that does).
/// Safe from any thread: the availability it checks is its application's (`Application.isProtectedDataAvailable`).
/// Lifebus has no boot-locked state: the device has always been unlocked once, so `.untilFirstUserAuthentication`
/// files never lock.
public struct ProtectedFile: Sendable {
    /// The data protection class (`FileProtectionType`).
    public enum Protection: String, Sendable, CaseIterable {
        /// `NSFileProtectionComplete` (class A): no read or write while protected data is unavailable.
        case complete
        /// `NSFileProtectionCompleteUnlessOpen` (class B): a file opened before the lock stays readable and writable
        /// through that descriptor; opening it while locked fails.
        case completeUnlessOpen
        /// `NSFileProtectionCompleteUntilFirstUserAuthentication` (class C, iOS's default for app data): available
        /// after the first unlock, which on Lifebus is always.
        case untilFirstUserAuthentication
    }

    /// The file's path.
    public let path: String
    /// Its protection class.
    public let protection: Protection
    let gate: ProtectedDataGate

    /// The file at `path` of `application`, guarded by `protection`.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - protection: Its data protection class.
    ///   - application: The app whose protected-data availability guards the file.
    @MainActor
    public init(path: String, protection: Protection, of application: Application) {
        self.path = path
        self.protection = protection
        gate = application.protectedData
    }

    /// The whole content, or `nil` when there is no file.
    ///
    /// - Returns: The file's bytes, or `nil` when it does not exist.
    /// - Throws: ``ProtectedFileError`` (`EPERM`, `lockedByDataProtection`) while protected data is unavailable for
    ///   the file's class, or with the `errno` of a failed `open` (other than `ENOENT`) or `read`.
    public func read() throws(ProtectedFileError) -> [UInt8]? {
        guard gate.permits(protection, openedWhileAvailable: false) else { throw .locked("read", path: path) }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw ProtectedFileError("open", path: path, errno: errno)
        }
        var handle = Handle(descriptor: descriptor, file: self)
        return try handle.readToEnd()
    }

    /// The content as UTF-8 text, or `nil` when there is no file.
    ///
    /// - Returns: The file's content decoded as UTF-8 (invalid bytes replaced), or `nil` when it does not exist.
    /// - Throws: ``ProtectedFileError`` as ``read()`` does.
    public func readText() throws(ProtectedFileError) -> String? {
        try read().map { String(decoding: $0, as: UTF8.self) }
    }

    /// Replaces the content with `bytes`, durably and atomically (a temporary file beside it, renamed over it).
    ///
    /// - Parameter bytes: The new content.
    /// - Throws: ``ProtectedFileError`` (`EPERM`, `lockedByDataProtection`) while protected data is unavailable for
    ///   the file's class, or with the `errno` of a failed `open` of the temporary file, `write`, `fsync` or `rename`.
    public func write(_ bytes: [UInt8]) throws(ProtectedFileError) {
        guard gate.permits(protection, openedWhileAvailable: false) else { throw .locked("write", path: path) }
        let temporary = path + ".tmp"
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ProtectedFileError("open", path: temporary, errno: errno) }
        var handle = Handle(descriptor: descriptor, file: self)
        try handle.write(bytes)
        try handle.synchronize()
        handle.close()
        guard rename(temporary, path) == 0 else { throw ProtectedFileError("rename", path: path, errno: errno) }
    }

    /// Replaces the content with `text`'s UTF-8.
    ///
    /// - Parameter text: The new content.
    /// - Throws: ``ProtectedFileError`` as the write of bytes does.
    public func write(_ text: String) throws(ProtectedFileError) {
        try write(Array(text.utf8))
    }

    /// Opens the file for reading and writing (creating it empty when missing), at its start. Refused while
    /// protected data is unavailable for `.complete` and `.completeUnlessOpen`.
    ///
    /// - Returns: A handle owning the open descriptor.
    /// - Throws: ``ProtectedFileError`` (`EPERM`, `lockedByDataProtection`) while protected data is unavailable for
    ///   the file's class, or with the `errno` of a failed `open`.
    public func open() throws(ProtectedFileError) -> Handle {
        guard gate.permits(protection, openedWhileAvailable: false) else { throw .locked("open", path: path) }
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ProtectedFileError("open", path: path, errno: errno) }
        return Handle(descriptor: descriptor, file: self)
    }
}
