import CLifebusSystem
import Glibc

/// A pidfd: a handle on exactly one process that stays valid, and never names another process, after that
/// process exits and its pid is reused. Owns the descriptor and closes it when released (a class, so it is never
/// closed twice).
///
/// Signals go through `pidfd_send_signal`, which answers `ESRCH` once the process has exited, whoever has the pid
/// by then.
public final class ProcessDescriptor {
    public let descriptor: Int32

    /// Takes ownership of an open pidfd.
    public init(adopting descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Opens a pidfd for `pid` (`pidfd_open`). Only exact when `pid` cannot have been reaped and reused yet, e.g.
    /// the caller's own unreaped child, or a pid checked again after opening.
    public static func open(_ pid: Int32) throws(SystemError) -> ProcessDescriptor {
        let result = lifebus_pidfd_open(pid)
        guard result >= 0 else { throw SystemError("pidfd_open", path: "pid \(pid)", code: -result) }
        return ProcessDescriptor(adopting: result)
    }

    deinit {
        close(descriptor)
    }

    /// Sends `signal` to the process; `nil`, or the errno (`ESRCH` once it exited). Signal 0 only checks.
    @discardableResult
    public func send(_ signal: Int32) -> Int32? {
        let result = lifebus_pidfd_send_signal(descriptor, signal)
        return result == 0 ? nil : -result
    }

    /// The process's pid as the kernel reports it for this descriptor (`/proc/self/fdinfo`), `nil` once it exited.
    public var pid: Int32? {
        guard let text = try? SystemFiles.read("/proc/self/fdinfo/\(descriptor)", limit: 4096) else { return nil }
        let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Pid:") }
        guard let value = line.flatMap({ Int32($0.dropFirst(4).trimmingPrefix(while: \.isWhitespace)) }), value > 0
        else { return nil }
        return value
    }

    /// Whether the process has exited (it may not be reaped yet).
    public var hasExited: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 1
    }
}
