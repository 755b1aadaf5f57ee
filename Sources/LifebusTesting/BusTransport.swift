@_spi(Hosting) import Lifebus
import LifebusJSON
import LifebusLifecycle

/// What `LifebusTestBus` needs of a broker, whichever it is: a controller's requests, apps brought onto the bus,
/// time moved on, and an end. `InMemoryTransport` and `LiveTransport` conform.
///
/// Bound to the main actor (the delegates' actor). Invariant: after `close()` nothing is left running.
@MainActor
protocol BusTransport: AnyObject {
    /// The live broker's socket; `nil` in memory.
    var socketPath: String? { get }
    /// Sends one controller request and returns its answer once the device has settled.
    func request(_ method: String, _ params: JSONValue) async throws -> JSONValue
    /// Sends one controller request and returns once the broker has taken it in (the callbacks it causes that no
    /// held app waits on answered), with what awaits its answer.
    func send(_ method: String, _ params: JSONValue) async -> PendingAnswer
    /// From now on the callbacks of the in-process app `id` wait unanswered, its delegate not called, until
    /// `release(_:)`.
    func hold(_ id: AppID)
    /// Lets the in-process app `id` answer what it held, and every later callback at once; returns once the device
    /// has settled.
    func release(_ id: AppID) async
    /// Brings the app `id` onto the bus, served by `delegate` (and `sceneDelegate`, for an app that adopts scenes);
    /// returns once the broker has launched it.
    func connect(
        _ id: AppID, options: ApplicationOptions, delegate: some ApplicationDelegate,
        sceneDelegate: (any SceneDelegate)?
    ) async throws -> Application
    /// Drops the connection of the in-process app `id` without a word, as when its process crashes; returns once
    /// the broker has taken it in.
    func crash(_ id: AppID) async throws
    /// Moves the broker's clock on by `duration`, firing every deadline on the way, in order.
    func advance(by duration: Duration) async throws
    /// Ends every app and the broker.
    func close() async
}

/// The answer to a request sent with `BusTransport.send(_:_:)`, awaited when the test wants it.
struct PendingAnswer {
    /// Waits for the answer (an error answer throws).
    let value: @MainActor () async throws -> JSONValue
}

/// Why a test bus could not do what it was asked (not a failed expectation: those are recorded issues).
public struct LifebusTestBusError: Error, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
