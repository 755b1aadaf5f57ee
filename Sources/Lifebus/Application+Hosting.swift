public import LifebusJSON
public import LifebusProtocol

/// How an app's requests reach an in-process host: the method and params of each, answered as the broker would.
@_spi(Hosting) public typealias ApplicationHost = @MainActor (String, JSONValue) async -> Result<JSONValue, RPCError>

/// The entry points an in-process host uses in place of the broker connection (`LifebusTesting`'s in-memory bus):
/// it delivers callbacks and expirations as `BrokerLink` does, and answers the app's requests itself (or, for an
/// app on a live broker, stops it). Not for apps: an app calls `run(delegate:)`.
extension Application {
    /// Serves this app from `host` with `delegate` (and `sceneDelegate`, for an app that adopts scenes), instead of
    /// `run(delegate:sceneDelegate:)`; call once, before any callback.
    @_spi(Hosting) public func attach(
        delegate: some ApplicationDelegate, sceneDelegate: (any SceneDelegate)? = nil,
        host: @escaping ApplicationHost
    ) {
        precondition(self.delegate == nil, "an Application is run or attached once")
        self.delegate = delegate
        self.sceneDelegate = sceneDelegate
        self.host = host
    }

    /// The host's broker refused the app's scenes and the app said hello again without them
    /// (`ApplicationOptions.fallsBackFromScenes`): it runs the app-delegate life cycle, as `BrokerLink` makes it.
    @_spi(Hosting) public func hostFellBackFromScenes() {
        fellBackFromScenes = true
    }

    /// Runs the delegate method for one callback, as a callback request from the broker does; returns the answer.
    @_spi(Hosting) public func hostDeliver(_ callback: CallbackParams) async -> CallbackAnswer {
        await deliver(callback)
    }

    /// Runs the expiration handler of a background task the host is about to end.
    @_spi(Hosting) public func hostBackgroundTaskExpiring(_ taskID: Int64) {
        backgroundTaskExpiring(BackgroundTaskIdentifier(rawValue: taskID))
    }

    /// Ends `run(delegate:)` without a `willTerminate`: the connection closes and nothing reconnects (a test
    /// harness leaving a live broker; the broker sees the app's connection end).
    @_spi(Hosting) public func hostStop() {
        link?.withLink { $0.shutdown() }
    }

    /// The host ended the app (killed, or its session closed): it is no longer running as far as the bus knows.
    @_spi(Hosting) public func hostEnded() {
        connectionLost()
    }
}
