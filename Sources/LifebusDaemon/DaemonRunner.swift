import Glibc
import LifebusBroker
import LifebusIO
import LifebusSupervision
import Logging

/// Runs one broker on the calling thread until a signal stops it; owns the loop and the signal watchers.
///
/// SIGHUP reopens the journal and SIGUSR1/SIGUSR2 log a status line; none of them stops the daemon.
/// The first SIGINT/SIGTERM stops accepting and closes the peers; when the last peer is gone the watchers close, the
/// loop runs dry and is closed. A second signal exits the process at once. With `--exit-with-parent` the exit of the
/// process that started the daemon stops it as the first signal does (the parent's pidfd is held until then).
final class DaemonRunner {
    private let configuration: BrokerConfiguration
    private let logger: Logger
    private let exitsWithParent: Bool
    private var watchers: [SignalWatcher] = []
    private var parent: (descriptor: ProcessDescriptor, watcher: ProcessExitWatcher)?
    private var stopping = false

    init(configuration: BrokerConfiguration, logger: Logger, exitsWithParent: Bool = false) {
        self.configuration = configuration
        self.logger = logger
        self.exitsWithParent = exitsWithParent
    }

    /// Returns the process exit status.
    func run() throws -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)  // a journal past a file size limit fails its write (EFBIG) instead of killing us
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
        if exitsWithParent { watchParent(loop: loop, broker: broker) }
        print("listening on \(configuration.socketPath)")
        for case .tcp(let host, let port) in addresses {
            print("listening on tcp \(host):\(port)")
        }
        fflush(nil)
        // After the line (printing it runs code start-up needs only once): the next thing the broker runs is its loop.
        if StartUpPages.release() == nil { logger.debug("madvise refused to release some start-up pages") }
        loop.run()
        try loop.close()
        logger.info("lifebusd stopped")
        return 0
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

    /// `--exit-with-parent`: opens the parent's pidfd, then checks that the parent is still the one read before (one
    /// that exited first has handed the daemon to init or a subreaper, and its pid may name another process by now),
    /// and stops the broker when that process exits. Without pidfds (Linux before 5.3) it says so and goes on.
    private func watchParent(loop: EventLoop, broker: Broker) {
        let parentPid = getppid()
        do {
            let descriptor = try ProcessDescriptor.open(parentPid)
            guard getppid() == parentPid else {
                logger.notice("the process that started lifebusd had already exited: stopping")
                return stop(broker)
            }
            let watcher = try ProcessExitWatcher(loop: loop, processDescriptor: descriptor.descriptor) {
                [unowned self] in
                guard !self.stopping else { return }
                self.logger.notice(
                    "the process that started lifebusd exited: stopping", metadata: ["lifebus.parent": "\(parentPid)"])
                self.stop(broker)
            }
            watcher.keepsLoopAlive = false
            parent = (descriptor, watcher)
        } catch {
            logger.warning("cannot watch the process that started lifebusd (\(error)); it will not stop with it")
        }
    }
}

