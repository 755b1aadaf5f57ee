import Glibc
import LifebusBroker
import LifebusContainment
import LifebusIO
import Logging

/// Runs one broker on the calling thread until a signal stops it; owns the loop and the signal watchers.
///
/// SIGHUP reopens the journal and SIGUSR1/SIGUSR2 log a status line; none of them stops the daemon.
/// The first SIGINT/SIGTERM stops accepting and closes the peers; when the last peer is gone the watchers close, the
/// loop runs dry and is closed. A second signal exits the process at once. With `--exit-with-parent PID` the exit of
/// the process that started the daemon stops it as the first signal does (the parent's pidfd is held until then);
/// a daemon whose parent is already gone at start exits before it starts the broker.
final class DaemonRunner {
    private let configuration: BrokerConfiguration
    private let logger: Logger
    /// `--exit-with-parent`'s pid: the process the daemon stops with.
    private let parentPid: Int32?
    private var watchers: [SignalWatcher] = []
    private var parent: (descriptor: ProcessDescriptor, watcher: ProcessExitWatcher)?
    private var stopping = false

    init(configuration: BrokerConfiguration, logger: Logger, parentPid: Int32? = nil) {
        self.configuration = configuration
        self.logger = logger
        self.parentPid = parentPid
    }

    /// Returns the process exit status.
    func run() throws -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)  // a journal past a file size limit fails its write (EFBIG) instead of killing us
        var parentDescriptor: ProcessDescriptor?
        if let parentPid {
            do throws(ParentGone) {
                parentDescriptor = try openParent(parentPid)
            } catch {
                StandardError.writeLine("lifebusd: \(error)")
                return 1
            }
        }
        let loop = try EventLoop()
        let broker = Broker(configuration: configuration, loop: loop, logger: logger)
        let addresses: [SocketAddress]
        do {
            addresses = try broker.start()
        } catch {
            StandardError.writeLine("lifebusd: \(error)")
            try loop.close()
            return 1
        }
        // A daemon may inherit a blocked signal mask from whatever started it; the signals it stops on must arrive.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        for number in Self.maintenanceSignals { sigaddset(&stopSignals, number) }
        sigprocmask(SIG_UNBLOCK, &stopSignals, nil)
        for number in [SIGINT, SIGTERM] {
            watchers.append(try SignalWatcher(loop: loop, signal: number) { [unowned self] received in
                self.signalled(received, broker: broker)
            })
        }
        // Signals whose default action would kill the daemon and leave its socket behind: handled, never fatal.
        for number in Self.maintenanceSignals {
            watchers.append(try SignalWatcher(loop: loop, signal: number) { received in
                if received == SIGHUP { broker.reopenJournal() } else { broker.logStatus() }
            })
        }
        if let parentPid, let parentDescriptor {
            watchParent(parentPid, through: parentDescriptor, loop: loop, broker: broker)
        }
        var announcement = "listening on \(configuration.socketPath)\n"
        for case .tcp(let host, let port) in addresses {
            announcement += "listening on tcp \(host):\(port)\n"
        }
        fflush(nil)
        // Before the line, which is written straight to the descriptor (no code of the printing path touched again):
        // whoever waits for it (a launcher, ./scripts/bench's memory row) sees the daemon as it idles.
        let released = StartUpPages.release()
        Self.writeToStandardOutput(announcement)
        if released == nil { logger.debug("madvise refused to release some start-up pages") }
        loop.run()
        try loop.close()
        logger.info("lifebusd stopped")
        return 0
    }

    /// Writes `text` whole to file descriptor 1.
    private static func writeToStandardOutput(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// SIGHUP reopens the journal; SIGUSR1 and SIGUSR2 log the broker's status.
    static let maintenanceSignals = [SIGHUP, SIGUSR1, SIGUSR2]

    private func signalled(_ number: Int32, broker: Broker) {
        guard !stopping else {
            exit(128 + number)
        }
        logger.info("stopping", metadata: ["lifebus.signal": "\(number)"])
        stop(broker)
    }

    /// Stops accepting and closes the peers; once the last is gone, closes the watchers so that the loop runs dry.
    private func stop(_ broker: Broker) {
        stopping = true
        broker.onDrained = { [unowned self] in
            for watcher in self.watchers {
                watcher.close()
            }
            self.watchers.removeAll()
            self.parent?.watcher.close()
            self.parent = nil
        }
        broker.shutdown()
    }

    /// Why the daemon does not start under `--exit-with-parent PID`: that process has exited, or is not (any longer)
    /// this one's parent.
    struct ParentGone: Error, CustomStringConvertible {
        let pid: Int32
        /// Whether a process with that pid is still there: then it is not this daemon's parent.
        let pidInUse: Bool

        var description: String {
            let what = pidInUse ? "is not (or no longer) the parent of this process" : "has exited"
            return "the process that started lifebusd (--exit-with-parent \(pid)) \(what): not starting"
        }
    }

    /// `--exit-with-parent PID`, before anything starts: opens `pid`'s pidfd, then checks that `pid` is still this
    /// process's parent. A parent that exited before the pidfd was open has handed the daemon to init or a
    /// subreaper, and its pid may name another process by now; one that exits after is seen by the pidfd. `nil`
    /// when the kernel has no pidfds (Linux before 5.3): the daemon says so and, its parent checked, runs without
    /// watching.
    private func openParent(_ pid: Int32) throws(ParentGone) -> ProcessDescriptor? {
        let descriptor: ProcessDescriptor?
        do throws(SystemError) {
            descriptor = try ProcessDescriptor.open(pid)
        } catch where error.code == ESRCH {
            throw ParentGone(pid: pid, pidInUse: false)
        } catch {
            logger.warning("cannot watch the process that started lifebusd (\(error)); it will not stop with it")
            descriptor = nil
        }
        guard getppid() == pid else { throw ParentGone(pid: pid, pidInUse: true) }
        return descriptor
    }

    /// Stops the broker when the parent, whose pidfd `descriptor` is, exits (at the loop's first turn if it already
    /// has). A watcher libuv refuses is said and the daemon runs on.
    private func watchParent(_ pid: Int32, through descriptor: ProcessDescriptor, loop: EventLoop, broker: Broker) {
        do {
            let watcher = try ProcessExitWatcher(loop: loop, processDescriptor: descriptor.descriptor) {
                [unowned self] in
                guard !self.stopping else { return }
                self.logger.notice(
                    "the process that started lifebusd exited: stopping", metadata: ["lifebus.parent": "\(pid)"])
                self.stop(broker)
            }
            watcher.keepsLoopAlive = false
            parent = (descriptor, watcher)
        } catch {
            logger.warning("cannot watch the process that started lifebusd (\(error)); it will not stop with it")
        }
    }
}
