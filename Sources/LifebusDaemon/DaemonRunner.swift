import Glibc
import LifebusBroker
import LifebusIO
import Logging

/// Runs one broker on the calling thread until a signal stops it; owns the loop and the signal watchers.
///
/// SIGHUP reopens the journal and SIGUSR1/SIGUSR2 log a status line; none of them stops the daemon.
/// The first SIGINT/SIGTERM stops accepting and closes the peers; when the last peer is gone the watchers close, the
/// loop runs dry and is closed. A second signal exits the process at once.
final class DaemonRunner {
    private let configuration: BrokerConfiguration
    private let logger: Logger
    private var watchers: [SignalWatcher] = []
    private var stopping = false

    init(configuration: BrokerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
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
        stopping = true
        logger.info("stopping", metadata: ["lifebus.signal": "\(number)"])
        broker.onDrained = { [unowned self] in
            for watcher in self.watchers {
                watcher.close()
            }
            self.watchers.removeAll()
        }
        broker.shutdown()
    }
}

