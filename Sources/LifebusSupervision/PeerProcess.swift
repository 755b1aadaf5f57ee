import CLifebusSystem
import Glibc
import LifebusContainment

/// The process of an app that connected on its own (started by hand), identified so that signals reach it and
/// nothing else: a pidfd from `SO_PEERPIDFD` where the kernel has it (Linux 6.5), else its pid together with its
/// start time from `/proc/PID/stat`, checked again before each signal.
///
/// Owns the pidfd when there is one (closed when dropped). Only the process itself is signalled, never its group:
/// a program started from a shell shares the group with whatever the shell started with it. The pid-and-start-time
/// fallback leaves the window between the check and `kill` open (the kernel gives nothing better there).
public final class PeerProcess {
    /// How the process is held.
    public enum Hold: Sendable, Equatable {
        case pidfd
        case pidAndStartTime(UInt64)
    }

    public let pid: Int32
    public let hold: Hold
    private let descriptor: ProcessDescriptor?

    private init(pid: Int32, hold: Hold, descriptor: ProcessDescriptor?) {
        self.pid = pid
        self.hold = hold
        self.descriptor = descriptor
    }

    /// Identifies the peer of the connected Unix socket `socket` whose `SO_PEERCRED` pid is `pid`. `nil` when
    /// the process is already gone (no pidfd and no stat file), so there is nothing to signal.
    public static func identify(socket: Int32, pid: Int32, usePeerPidfd: Bool = true) -> PeerProcess? {
        if usePeerPidfd {
            let result = lifebus_get_peer_pidfd(socket)
            if result >= 0 {
                return PeerProcess(pid: pid, hold: .pidfd, descriptor: ProcessDescriptor(adopting: result))
            }
        }
        guard let stat = ProcStat.read(pid), !stat.isZombie else { return nil }
        return PeerProcess(pid: pid, hold: .pidAndStartTime(stat.startTime), descriptor: nil)
    }

    /// Sends `signal` to the process if it is still the one identified; `nil`, or the errno (`ESRCH` when it
    /// exited, or its pid now belongs to another process).
    @discardableResult
    public func send(_ signal: Int32) -> Int32? {
        switch hold {
        case .pidfd:
            guard let descriptor else { return ESRCH }
            return descriptor.send(signal)
        case .pidAndStartTime(let startTime):
            guard let now = ProcStat.read(pid), now.startTime == startTime, !now.isZombie else { return ESRCH }
            return Glibc.kill(pid, signal) == 0 ? nil : errno
        }
    }

    /// Whether the process identified is still running.
    public var isAlive: Bool {
        switch hold {
        case .pidfd: !(descriptor?.hasExited ?? true)
        case .pidAndStartTime: send(0) == nil
        }
    }
}
