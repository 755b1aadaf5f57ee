import Glibc

extension ProtectedFile {
    /// An open descriptor of a `ProtectedFile`: reads and writes at its offset, each checked against the file's
    /// protection class when it is made (a `.completeUnlessOpen` handle opened while the data was available keeps
    /// working after the lock; a `.complete` one fails with `EPERM` like any access).
    ///
    /// Owns the descriptor and closes it once (`close()` or when dropped). Not copyable, so no two owners close it.
    public struct Handle: ~Copyable, Sendable {
        private let descriptor: Int32
        private let file: ProtectedFile
        private let openedWhileAvailable: Bool

        init(descriptor: Int32, file: ProtectedFile) {
            self.descriptor = descriptor
            self.file = file
            openedWhileAvailable = file.gate.isAvailable
        }

        deinit {
            Glibc.close(descriptor)
        }

        /// Closes the descriptor now.
        public consuming func close() {}

        /// Writes all of `bytes` at the offset.
        ///
        /// - Parameter bytes: The bytes to write.
        /// - Throws: ``ProtectedFileError`` (`EPERM`, `lockedByDataProtection`) when the file's protection class
        ///   refuses the write now, or with the `errno` of a failed `write`.
        public mutating func write(_ bytes: [UInt8]) throws(ProtectedFileError) {
            try check("write")
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ProtectedFileError("write", path: file.path, errno: errno)
                }
                written += count
            }
        }

        /// Reads from the offset to the end.
        ///
        /// - Returns: The bytes from the offset to the end of the file (empty at the end).
        /// - Throws: ``ProtectedFileError`` (`EPERM`, `lockedByDataProtection`) when the file's protection class
        ///   refuses the read now, or with the `errno` of a failed `read`.
        public mutating func readToEnd() throws(ProtectedFileError) -> [UInt8] {
            try check("read")
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ProtectedFileError("read", path: file.path, errno: errno)
                }
                if count == 0 { return bytes }
                bytes.append(contentsOf: chunk[..<count])
            }
        }

        /// Flushes what was written to the disk (`fsync`).
        ///
        /// - Throws: ``ProtectedFileError`` (`EPERM`, `lockedByDataProtection`) when the file's protection class
        ///   refuses access now, or with the `errno` of a failed `fsync`.
        public func synchronize() throws(ProtectedFileError) {
            try check("fsync")
            guard fsync(descriptor) == 0 else { throw ProtectedFileError("fsync", path: file.path, errno: errno) }
        }

        private func check(_ function: String) throws(ProtectedFileError) {
            guard file.gate.permits(file.protection, openedWhileAvailable: openedWhileAvailable) else {
                throw .locked(function, path: file.path)
            }
        }
    }
}
