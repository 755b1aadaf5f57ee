import Glibc

/// Decides what to do with whatever lies at the broker's socket path before it binds there.
///
/// Stateless. A path that holds nothing is free; a socket nobody listens on is a stale file left by a dead broker and
/// is removed; a socket a live broker answers on, or a file that is not a socket, is never touched.
enum SocketFile {
    enum Problem: Error, CustomStringConvertible {
        case brokerAlreadyListening(String)
        case anotherBrokerHolds(String)
        case notASocket(String)
        case cannotInspect(String, errno: Int32)
        case unsafeDirectory(String, String)

        var description: String {
            switch self {
            case .brokerAlreadyListening(let path):
                "a broker is already listening on \(path)"
            case .anotherBrokerHolds(let path):
                "another broker holds \(path) (its lock \(path).lock is taken)"
            case .notASocket(let path):
                "\(path) exists and is not a socket; refusing to replace it"
            case .cannotInspect(let path, let code):
                "cannot use \(path): \(String(cString: strerror(code)))"
            case .unsafeDirectory(let path, let reason):
                "refusing to use \(path): \(reason)"
            }
        }
    }

    /// Makes `path` free to bind, removing a stale socket; throws when it must not be taken.
    static func prepare(_ path: String) throws(Problem) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw .cannotInspect(path, errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
        switch probe(path) {
        case 0:
            throw .brokerAlreadyListening(path)
        case ECONNREFUSED:
            guard unlink(path) == 0 || errno == ENOENT else { throw .cannotInspect(path, errno: errno) }
        case let code:
            throw .cannotInspect(path, errno: code)
        }
    }

    /// Tries a blocking connect to the socket at `path`: 0 when something accepts, else the errno.
    private static func probe(_ path: String) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return ENAMETOOLONG }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 ? 0 : errno
    }
}
