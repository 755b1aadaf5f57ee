import Glibc

/// A blocking Unix-socket client that writes raw bytes and reads lines: the test's view of the wire.
///
/// Owns its socket (through its `LineReader`). Used by one test at a time.
final class RawClient {
    let lines: LineReader
    var descriptor: Int32 { lines.descriptor }

    init(path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SpawnError(errno: code)
        }
        lines = LineReader(descriptor: fd)
    }

    /// Wraps a socket the test accepted (it plays the broker).
    init(accepted descriptor: Int32) {
        lines = LineReader(descriptor: descriptor)
    }

    /// Connects to the broker's loopback TCP listener.
    init(tcpPort: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(tcpPort).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SpawnError(errno: code)
        }
        lines = LineReader(descriptor: fd)
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Writes `text` followed by a newline.
    func sendLine(_ text: String) {
        send(Array(text.utf8) + [0x0A])
    }

    /// The next line, or nil at end of stream or timeout.
    func readLine(timeout: Duration = .seconds(20)) -> String? {
        lines.readLine(timeout: timeout)
    }

    /// Says hello as `role` and returns the broker's answer line.
    @discardableResult
    func hello(role: String = "controller", extra: String = "") -> String? {
        let params = #"{"role":"\#(role)","protocolVersion":1\#(extra)}"#
        sendLine(#"{"jsonrpc":"2.0","id":"hello","method":"hello","params":\#(params)}"#)
        return readLine()
    }

    /// True when the broker has closed the connection (end of stream within the timeout).
    func waitForClose(timeout: Duration = .seconds(20)) -> Bool {
        _ = lines.readAll(timeout: timeout)
        return lines.reachedEnd
    }

    /// Closes the socket (the reader's buffer stays readable).
    func close() {
        lines.closeDescriptor()
    }

    /// Closes the writing half: the broker sees end of stream.
    func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }
}
