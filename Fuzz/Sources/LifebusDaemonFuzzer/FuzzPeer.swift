import Glibc
import LifebusJSON
import LifebusProtocol

/// One peer of a fuzz input: the client end of a connection to the broker's Unix socket, non-blocking, in the
/// harness's own process.
///
/// Owns its descriptor (closed by `close()` or `deinit`) and the partial line last read. Everything the broker sends
/// it is read and checked: every whole line must be JSON. Invariant: `descriptor >= 0` until `close()`.
final class FuzzPeer {
    private var descriptor: Int32
    private var partial: [UInt8] = []
    /// The whole lines received and not yet taken by `takeLines()`, kept only when `keepsLines`.
    private var lines: [[UInt8]] = []
    private let keepsLines: Bool
    /// Whether the broker has closed its end.
    private(set) var sawEnd = false

    init(path: String, keepsLines: Bool = false) {
        self.keepsLines = keepsLines
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        precondition(descriptor >= 0, "socket: \(errno)")
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // A Unix socket connects at once while the listener's backlog has room; the broker's accept comes later.
        precondition(status == 0, "connect to the broker: errno \(errno)")
    }

    deinit {
        close()
    }

    /// Writes as much of `bytes` as the socket takes now; returns how many bytes were taken (0 when it is full), or
    /// `nil` when the connection is gone.
    func write(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard descriptor >= 0 else { return nil }
        let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written >= 0 { return written }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }

    /// Reads everything the broker has sent so far through `buffer` and checks each whole line parses as JSON.
    func drain(through buffer: UnsafeMutableRawBufferPointer) {
        guard descriptor >= 0 else { return }
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count == 0 { sawEnd = true }
            guard count > 0 else { return }
            absorb(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The whole lines received since the last call (only when made with `keepsLines`).
    func takeLines() -> [[UInt8]] {
        defer { lines.removeAll() }
        return lines
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    private func absorb(_ bytes: UnsafeRawBufferPointer) {
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            if partial.isEmpty {
                check(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]))
            } else {
                partial.append(contentsOf: bytes[start..<newline])
                partial.withUnsafeBytes { check($0) }
                partial.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        partial.append(contentsOf: bytes[start...])
    }

    private func check(_ line: UnsafeRawBufferPointer) {
        let parsed = try? JSONParser.parse(line)
        precondition(parsed != nil, "the broker sent a line that is not JSON: \(String(decoding: line, as: UTF8.self))")
        if keepsLines { lines.append(Array(line)) }
    }
}
