import CLibUV
import Glibc

/// Where a `Listener` listens or a `Connection` connects. A plain value.
///
/// `.unix` is a filesystem path (at most 107 bytes, the size of `sun_path` less its NUL). `.tcp` is for loopback
/// only (`127.0.0.0/8`, `::1` or `localhost`): any other host is refused with `EADDRNOTAVAIL`, so nothing here can
/// expose the bus beyond the machine.
public enum SocketAddress: Sendable, Equatable, CustomStringConvertible {
    case unix(String)
    case tcp(host: String, port: Int)

    public var description: String {
        switch self {
        case .unix(let path): path
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }
}

/// The largest path `sun_path` holds with its terminating NUL.
let maxUnixPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

extension SocketAddress {
    /// Checks a Unix socket path; libuv 1.44 would silently truncate a long one.
    static func checkUnixPath(_ path: String, function: String) throws(UVError) {
        if path.utf8.count > maxUnixPathLength {
            throw UVError(UV_ENAMETOOLONG, function: function)
        }
        if path.isEmpty {
            throw UVError(UV_EINVAL, function: function)
        }
    }

    /// Calls `body` with the loopback socket address for `host` and `port`.
    static func withLoopbackAddress<R>(
        host: String,
        port: Int,
        function: String,
        _ body: (UnsafePointer<sockaddr>) -> R
    ) throws(UVError) -> R {
        guard (0...65535).contains(port) else { throw UVError(UV_EINVAL, function: function) }
        let literal = host == "localhost" ? "127.0.0.1" : host
        var ipv4 = sockaddr_in()
        if uv_ip4_addr(literal, Int32(port), &ipv4) == 0 {
            guard UInt32(bigEndian: ipv4.sin_addr.s_addr) >> 24 == 127 else {
                throw UVError(UV_EADDRNOTAVAIL, function: function)
            }
            return withUnsafePointer(to: &ipv4) { body(UnsafeRawPointer($0).assumingMemoryBound(to: sockaddr.self)) }
        }
        var ipv6 = sockaddr_in6()
        if uv_ip6_addr(literal, Int32(port), &ipv6) == 0 {
            let isLoopback = withUnsafeBytes(of: ipv6.sin6_addr) { bytes in
                bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
            }
            guard isLoopback else { throw UVError(UV_EADDRNOTAVAIL, function: function) }
            return withUnsafePointer(to: &ipv6) { body(UnsafeRawPointer($0).assumingMemoryBound(to: sockaddr.self)) }
        }
        throw UVError(UV_EINVAL, function: function)
    }
}
