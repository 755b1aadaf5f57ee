import Glibc
import LifebusIO
public import LifebusLifecycle
public import LifebusProtocol

/// One app on the bus: the counterpart of `UIApplication`. Owns the app's identity and options, its delegate (and
/// scene delegate, for an app that adopts scenes), its connected scenes and their sessions, its observers
/// (memory warnings, the app-level notifications, `scenePhase` streams) and the expiration handlers of its background
/// tasks, and runs the SDK's I/O thread (a libuv loop holding the broker connection) while `run(delegate:)` is
/// running.
///
/// Bound to the main actor. Invariants: `run(delegate:)` is called at most once; `state` is the lifecycle state the
/// broker last told the app about (`notRunning` before launch, after `willTerminate` and while disconnected).
@MainActor
public final class Application {
    /// The app id this app says hello with, e.g. `com.example.DeepThoughts`.
    public let id: String
    /// How it connects and what it declares in hello.
    public let options: ApplicationOptions
    /// The lifecycle state as the app last saw it (the state of the latest callback).
    public internal(set) var state: LifecycleState = .notRunning
    /// The callback whose delegate method is running now, with its id, budget and cause; `nil` between callbacks.
    public internal(set) var currentCallback: CallbackParams?
    /// The payload the app saved before its previous process ended, handed back at this launch (`nil` when none).
    public internal(set) var restorationState: String?
    /// Why `run(delegate:)` returned without ever connecting (`ApplicationOptions.connectTimeout` ran out), e.g.
    /// "cannot reach the broker at /tmp/x.sock: ENOENT"; `nil` otherwise.
    public internal(set) var connectFailure: String?
    /// `true` once a broker whose profile has no scenes (ios3, ios4, ios7) refused this app's scenes: the app, run
    /// with a scene delegate, then runs the app-delegate life cycle — its `ApplicationDelegate` gets every callback
    /// (`didBecomeActive`, `didEnterBackground`, …) and the scene delegate none — as iOS 12 runs an app with a scene
    /// manifest. Automatic, as on iOS; `false` for an app that never adopted scenes or whose broker has them.
    public internal(set) var fellBackFromScenes = false
    /// Whether the running callback's handler reported a failure (`reportHandlerFailure()`).
    var currentCallbackFailed = false

    var delegate: (any ApplicationDelegate)?
    /// Set for an app that adopts scenes (it then says `scenes: true` in hello).
    var sceneDelegate: (any SceneDelegate)?
    /// The connected scenes by id, and the sessions the app knows (`Application+Scenes.swift`).
    var scenes: [SceneID: Scene] = [:]
    var sceneSessions: [SceneSessionID: SceneSession] = [:]
    var notificationObservers: [(token: ObserverToken, notification: ApplicationNotification,
                                 handler: @MainActor () -> Void)] = []
    /// `scenePhase` streams: of one scene, or of the app (`scene` `nil`).
    var phaseStreams: [(token: ObserverToken, scene: SceneID?, continuation: AsyncStream<ScenePhase>.Continuation)] =
        []
    /// The way into the I/O thread while `run` runs.
    var link: LinkHandle?
    /// An in-process host (`Application+Hosting.swift`) that answers the app's requests instead of a broker
    /// connection; `nil` for an app on a socket.
    var host: ApplicationHost?
    var memoryWarningObservers: [(token: ObserverToken, handler: @MainActor () -> Void)] = []
    var nextObserverNumber = 0
    var expirationHandlers: [BackgroundTaskIdentifier: (@MainActor () -> Void)?] = [:]
    /// Expirations that arrived before `beginBackgroundTask` had registered the task's handler.
    var earlyExpirations: Set<BackgroundTaskIdentifier> = []
    /// Whether protected data is available, shared with the app's `ProtectedFile`s (`Application+ProtectedData`).
    nonisolated let protectedData = ProtectedDataGate()
    /// The app's `BGTaskScheduler` (`BackgroundTaskScheduler`): its launch handlers and running tasks.
    public private(set) lazy var taskScheduler = BackgroundTaskScheduler(application: self)

    /// Makes the app, not yet connected: call ``run(delegate:sceneDelegate:)`` next
    /// (``ApplicationMain(id:delegate:sceneDelegate:options:)`` does both).
    ///
    /// - Parameters:
    ///   - id: The app id it says hello with, e.g. `com.example.DeepThoughts` (an installed app's manifest id).
    ///   - options: How it connects and what it declares in hello; the defaults by default.
    public init(id: String, options: ApplicationOptions = ApplicationOptions()) {
        self.id = id
        self.options = options
    }

    /// Connects to the broker and serves its callbacks with `delegate` until `willTerminate` has been answered (or
    /// the first connection's `connectTimeout` ran out: `connectFailure` says why); then closes the connection and
    /// the I/O thread's loop and returns. While the broker is away the app keeps running
    /// and reconnects with backoff (the broker then launches it again). `ApplicationMain` calls this, then exits.
    /// With a `sceneDelegate` the app adopts scenes: a broker whose profile has none refuses its hello
    /// (`lifebus.ScenesUnsupported`), and the app says hello again without scenes and runs the app-delegate life
    /// cycle instead (`fellBackFromScenes`), as iOS 12 runs an app with a scene manifest.
    ///
    /// - Parameters:
    ///   - delegate: Answers the app's callbacks; the application holds it while `run` runs.
    ///   - sceneDelegate: Answers the scene callbacks of an app that adopts scenes; `nil` (the default) for an app
    ///     without scenes.
    public func run(delegate: some ApplicationDelegate, sceneDelegate: (any SceneDelegate)? = nil) async {
        precondition(self.delegate == nil, "Application.run(delegate:) may be called only once")
        self.delegate = delegate
        self.sceneDelegate = sceneDelegate
        let path = BrokerSocketPath.resolve(
            explicit: options.socketPath, environment: ProcessEnvironment.current, uid: getuid()
        )
        let hello = HelloParams(
            role: .app, appID: id, flags: options.flags(adoptsScenes: sceneDelegate != nil),
            clientName: "lifebus-swift-sdk")
        let options = options
        // The first connection's failure comes back with the loop's end, not through a task of its own: a task could
        // run after `run` returned, and the caller would see no failure.
        let failure = await withCheckedContinuation { (finished: CheckedContinuation<String?, Never>) in
            DetachedThread.start { [self] in
                let loop: EventLoop
                do {
                    loop = try EventLoop()
                } catch {
                    preconditionFailure("the Lifebus SDK cannot create its event loop: \(error)")
                }
                let brokerLink = BrokerLink(loop: loop, path: path, hello: hello, options: options, application: self)
                let handle = LinkHandle(executor: loop.executor, link: LoopBound(brokerLink, loop: loop))
                Task { @MainActor in self.link = handle }
                brokerLink.connect()
                loop.run()
                do {
                    try loop.close()
                } catch {
                    preconditionFailure("the Lifebus SDK left a handle open: \(error)")
                }
                finished.resume(returning: brokerLink.connectFailure)
            }
        }
        if let failure { connectFailure = failure }
        link = nil
    }
}

/// The main actor's way to the `BrokerLink` on the I/O thread.
struct LinkHandle: Sendable {
    let executor: LoopExecutor
    let link: LoopBound<BrokerLink>

    /// Runs `work` with the link on the I/O thread.
    func withLink(_ work: @escaping @Sendable (BrokerLink) -> Void) {
        let link = link
        executor.execute { work(link.value) }
    }
}
