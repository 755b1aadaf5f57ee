import Glibc

/// What the broker process holds, read from `/proc`, and raw-socket moves that do not block: the measuring side
/// of the connection drills.
extension BrokerFixture {
    /// The broker's resident memory in bytes (`/proc/PID/statm`, second field × page size); 0 if unreadable.
    func residentBytes() -> Int {
        guard let file = fopen("/proc/\(process.pid)/statm", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, 256, file) != nil else { return 0 }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// How many descriptors the broker has open.
    func openDescriptors() -> Int {
        fileNames(in: "/proc/\(process.pid)/fd", endingWith: "").count
    }
}

extension RawClient {
    /// Writes as much of `bytes` as the socket takes without blocking; returns how much that was.
    func sendWithoutBlocking(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            guard written > 0 else { break }
            offset += written
        }
        return offset
    }

    /// Whether the broker hung up within `timeout`, found without reading a byte (poll's `POLLHUP`): a peer that
    /// does not read must be closed all the same.
    func waitForHangUp(timeout: Duration = .seconds(20)) -> Bool {
        let deadline = Deadline(after: timeout)
        while !deadline.hasPassed {
            var poller = pollfd(fd: descriptor, events: 0, revents: 0)
            let ready = poll(&poller, 1, min(deadline.remainingMilliseconds, 100))
            if ready > 0, poller.revents & Int16(POLLHUP) != 0 { return true }
        }
        return false
    }
}
