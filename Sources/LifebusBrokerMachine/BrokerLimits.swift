import LifebusLifecycle
import LifebusProtocol

/// The bounds on what one peer can make the broker keep or produce, beyond the wire's own (`RPCCodec.maxBatchCount`,
/// `HistoryParams.maxLimit`/`maxPageBytes`/`retainedBytes`, the batch answer cap). Each is documented in
/// Protocol/README.md §15 and answered `lifebus.LimitExceeded` with `data.limit` its name and `data.maximum` its
/// value. Stateless constants.
enum BrokerLimits {
    /// A mark's `data` object, as compact JSON.
    static let markDataBytes = 16 * 1024
    /// A mark's `name`.
    static let markNameBytes = 256
    /// Background tasks one app holds open at once.
    static let backgroundTasksPerApp = 32
    /// `wait` requests one connection has pending.
    static let waitsPerConnection = 256
    /// Events one controller fired that have not finished (with `wait` or without).
    static let firesInFlightPerController = 64
    /// A scene session's restoration payload (`stateRestorationActivity`'s answer), as compact JSON: a larger one is
    /// not kept (the answer still counts; the broker logs the drop). An answer carries no error to refuse it with, so
    /// this one is documented among §15.2's bounds without an error.
    static let sceneRestorationBytes = 64 * 1024
}
