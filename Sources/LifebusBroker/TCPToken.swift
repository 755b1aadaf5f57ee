import Glibc
import LifebusIO

/// The secret a loopback TCP peer must present in `hello`: TCP has no file permissions, so the token file — mode
/// 0600 beside the socket, `SOCKET.token` — carries the Unix socket's "this user only" over to TCP.
///
/// Owns the token (32 bytes from the kernel's `getrandom`, as 64 lowercase hex digits) and its file. Bound to the
/// broker's loop. Invariants: the file is created fresh (`O_EXCL`, never through a symlink) while the broker holds the
/// socket's lock, and removed by `remove()`; a comparison takes the same time wherever the presented token differs.
final class TCPToken {
    let path: String
    /// The secret, as the file holds it (hex digits); the broker machine compares what a TCP peer presents.
    let value: [UInt8]

    private init(path: String, value: [UInt8]) {
        self.path = path
        self.value = value
    }

    /// The token file's path for a socket path.
    static func path(besideSocket socketPath: String) -> String { socketPath + ".token" }

    /// Mints a token and writes it to `path` (replacing a file a dead broker left there).
    static func create(at path: String) throws(SocketFile.Problem) -> TCPToken {
        let random: [UInt8]
        do {
            random = try SecureRandom.bytes(32)
        } catch {
            throw .cannotInspect("the kernel's random source", errno: -error.code)
        }
        let digits = Array("0123456789abcdef".utf8)
        let hex = random.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotInspect(path, errno: errno) }
        defer { close(descriptor) }
        let line = hex + [0x0A]
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            let code = errno
            unlink(path)
            throw .cannotInspect(path, errno: code)
        }
        return TCPToken(path: path, value: hex)
    }

    /// Removes the token file (the broker is stopping).
    func remove() {
        unlink(path)
    }
}
