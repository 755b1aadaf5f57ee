import Glibc
import LifebusIO
import Logging

/// The connection bounds only the driver can apply: the descriptor limit under the connection cap, and each
/// connection's flow limits before and after `hello` (who gets in is the machine's: `BrokerMachine+Admission`).
extension Broker {
    /// Descriptors kept free for the journal, the listeners and the loop's own, and for the peers sent away in one
    /// turn to make room (at most `maxAcceptsPerTurn`), which close a little later.
    static func reservedDescriptors(_ limits: ConnectionLimits) -> Int {
        32 + limits.maxAcceptsPerTurn
    }

    /// `limits.maxConnections`, raising the soft descriptor limit toward it when the hard limit allows, and lowered
    /// to what the descriptor limit leaves (so the cap, not `EMFILE`, refuses the extra peer, and with a word).
    static func connectionCap(_ limits: ConnectionLimits, logger: Logger) -> Int {
        let wanted = limits.maxConnections
        let reserved = reservedDescriptors(limits)
        let descriptors = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        let unlimited = rlim_t.max  // RLIM_INFINITY (~0) does not import as an unsigned constant
        var limit = rlimit()
        guard getrlimit(descriptors, &limit) == 0, limit.rlim_cur != unlimited else { return wanted }
        let needed = rlim_t(wanted + reserved)
        if limit.rlim_cur < needed {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == unlimited ? needed : min(needed, limit.rlim_max)
            if setrlimit(descriptors, &raised) == 0 { limit = raised }
        }
        let fits = max(1, Int(limit.rlim_cur) - reserved)
        if fits < wanted {
            logger.notice("the descriptor limit lowers the connection cap",
                          metadata: ["lifebus.limit.connections": "\(fits)", "lifebus.limit.wanted": "\(wanted)"])
        }
        return min(wanted, fits)
    }

    /// Before `hello`: the short line limit, the small output cap, the stall timeout, the turn's line budget, and
    /// the read pause below the output cap (in bytes and in lines: the line count does not change at `hello`).
    func applyLimitsBeforeHello(to connection: Connection) {
        let limits = configuration.limits
        connection.maxLineLength = configuration.maxLineLengthBeforeHello
        connection.maxLinesPerTurn = limits.maxLinesPerTurn
        connection.writeStallTimeout = limits.writeStallTimeout
        connection.maxPendingWrites = limits.maxOutputMessages
        connection.maxPendingWriteBytes = limits.maxOutputBytesBeforeHello
        connection.readPauseThreshold = ConnectionLimits.readPauseThreshold(
            forOutputCap: limits.maxOutputBytesBeforeHello)
        connection.readPauseLines = ConnectionLimits.readPauseThreshold(forOutputCap: limits.maxOutputMessages)
    }

    /// After `hello`: the full line limit and output cap.
    func applyLimitsAfterHello(to connection: Connection) {
        connection.maxLineLength = configuration.maxLineLength
        connection.maxPendingWriteBytes = configuration.limits.maxOutputBytes
        connection.readPauseThreshold = ConnectionLimits.readPauseThreshold(
            forOutputCap: configuration.limits.maxOutputBytes)
    }
}
