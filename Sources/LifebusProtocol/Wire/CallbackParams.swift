public import LifebusJSON
public import LifebusLifecycle

/// The params of a broker → app callback request, whose method is the callback's name
/// (`LifebusMethod.callback(_:)`).
///
/// A plain value (`Sendable`). Wire form:
/// `{"callbackID":12,"callback":"didEnterBackground","state":"background","budgetMs":5000,
/// "cause":{"eventID":3,"event":"call --answer"}}`.
/// Invariants enforced by `init(json:)`: `callbackID` ≥ 1 (minted by the broker, unique per app connection);
/// `state` is the state the app is in while the callback runs; `budgetMs` is a finite number ≥ 0 of milliseconds
/// the handler may take; `cause` is `null` (or absent) when no controller event caused it (e.g. connecting).
/// A scene callback adds its `CallbackScene` (`scene`, `session`, `sceneState`, `posts`, `options`,
/// `restoration`), `didDiscardSceneSessions` its `sessions` (`Protocol/README.md` §10.1); app-level callbacks carry
/// neither, and their text is what it was before scenes.
/// The app answers with `CallbackAnswer` once its handler returned.
public struct CallbackParams: Sendable, Equatable {
    public var callbackID: Int64
    public var callback: LifecycleCallback
    public var state: LifecycleState
    public var budgetMs: Double
    public var cause: EventCause?
    /// `didFinishLaunching` of an installed app only: why it launches and what its last run left (absent
    /// otherwise, and then not written).
    public var launch: LaunchContext? {
        get { rare?.launch }
        set { setRare(launch: newValue, scene: scene, sessions: sessions, background: background) }
    }

    /// A scene callback's scene (`nil` for an app-level callback).
    public var scene: CallbackScene? {
        get { rare?.scene }
        set { setRare(launch: launch, scene: newValue, sessions: sessions, background: background) }
    }

    /// `didDiscardSceneSessions`: the sessions discarded (empty otherwise, and then not written).
    public var sessions: [SceneSessionID] {
        get { rare?.sessions ?? [] }
        set { setRare(launch: launch, scene: scene, sessions: newValue, background: background) }
    }

    /// The background members (§10.2): a background launch's `launchReason`, a task callback's `identifier` and
    /// `kind`, a push's `payload` (`nil` when none, and then nothing is written).
    public var background: CallbackBackground? {
        get { rare?.background }
        set { setRare(launch: launch, scene: scene, sessions: sessions, background: newValue) }
    }

    /// `launch`, `scene`, `sessions` and `background`, held out of line in one reference: each is rare (one per
    /// launch, a scene app's callbacks, the background callbacks) and wide, and the params travel inside every
    /// callback's effect, which would be that much wider to move and copy (a second reference cost ~150 instructions
    /// of retains and releases per callback).
    private var rare: RareMembers?

    /// Whether the params carry a launch context or scene members (without copying them out).
    var hasRareMembers: Bool { rare != nil }

    private mutating func setRare(
        launch: LaunchContext?, scene: CallbackScene?, sessions: [SceneSessionID], background: CallbackBackground?
    ) {
        let background = background?.isEmpty == true ? nil : background
        rare = launch == nil && scene == nil && sessions.isEmpty && background == nil
            ? nil : RareMembers(launch: launch, scene: scene, sessions: sessions, background: background)
    }

    private final class RareMembers: Sendable {
        let launch: LaunchContext?
        let scene: CallbackScene?
        let sessions: [SceneSessionID]
        let background: CallbackBackground?

        init(
            launch: LaunchContext?, scene: CallbackScene?, sessions: [SceneSessionID], background: CallbackBackground?
        ) {
            self.launch = launch
            self.scene = scene
            self.sessions = sessions
            self.background = background
        }
    }

    public init(
        callbackID: Int64,
        callback: LifecycleCallback,
        state: LifecycleState,
        budgetMs: Double,
        cause: EventCause? = nil,
        launch: LaunchContext? = nil
    ) {
        self.callbackID = callbackID
        self.callback = callback
        self.state = state
        self.budgetMs = budgetMs
        self.cause = cause
        rare = launch.map { RareMembers(launch: $0, scene: nil, sessions: [], background: nil) }
    }

    /// A scene callback's params (`scene`), or `didDiscardSceneSessions`' (`sessions`). Apart from the initializer
    /// above, which the broker calls for every callback: a default `scene` argument there was checked through the
    /// optional's value witness at every call.
    public init(
        callbackID: Int64, callback: LifecycleCallback, state: LifecycleState, budgetMs: Double,
        cause: EventCause? = nil, scene: CallbackScene?, sessions: [SceneSessionID] = []
    ) {
        self.init(callbackID: callbackID, callback: callback, state: state, budgetMs: budgetMs, cause: cause)
        setRare(launch: nil, scene: scene, sessions: sessions, background: nil)
    }

    /// `didDiscardSceneSessions`' params.
    public init(
        callbackID: Int64, callback: LifecycleCallback, state: LifecycleState, budgetMs: Double,
        cause: EventCause? = nil, sessions: [SceneSessionID]
    ) {
        self.init(callbackID: callbackID, callback: callback, state: state, budgetMs: budgetMs, cause: cause)
        setRare(launch: nil, scene: nil, sessions: sessions, background: nil)
    }

    /// A callback's params with its background members (§10.2): `performBackgroundTask`,
    /// `backgroundTaskWillExpire`, `didReceiveRemoteNotification`, a background launch's `didFinishLaunching`.
    public init(
        callbackID: Int64, callback: LifecycleCallback, state: LifecycleState, budgetMs: Double,
        cause: EventCause? = nil, launch: LaunchContext? = nil, background: CallbackBackground
    ) {
        self.init(callbackID: callbackID, callback: callback, state: state, budgetMs: budgetMs, cause: cause)
        setRare(launch: launch, scene: nil, sessions: [], background: background)
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        callbackID = try reader.integer("callbackID", as: Int64.self, minimum: 1)
        callback = try reader.choice("callback", as: LifecycleCallback.self)
        state = try reader.choice("state", as: LifecycleState.self)
        budgetMs = try reader.double("budgetMs")
        cause = try reader.optionalCause("cause")
        launch = try reader.optional("launch").flatMap { $0 == .null ? nil : $0 }.map { value throws(RPCError) in
            guard case .object = value else { throw RPCError.invalidParams(field: "launch", "must be an object") }
            return try LaunchContext(json: value)
        }
        var sessions: [SceneSessionID] = []
        if reader.has("sessions") {
            sessions = try reader.array("sessions") { value, field throws(RPCError) -> SceneSessionID in
                guard case .integer(let number) = value, number >= 1, let id = UInt32(exactly: number) else {
                    throw RPCError.invalidParams(field: field, "must be an integer from 1 to \(UInt32.max)")
                }
                return SceneSessionID(id)
            }
        }
        setRare(
            launch: launch, scene: try CallbackScene(reader: reader), sessions: sessions,
            background: try CallbackBackground(reader: reader))
    }

    public static func == (lhs: CallbackParams, rhs: CallbackParams) -> Bool {
        lhs.callbackID == rhs.callbackID && lhs.callback == rhs.callback && lhs.state == rhs.state
            && lhs.budgetMs == rhs.budgetMs && lhs.cause == rhs.cause && lhs.launch == rhs.launch
            && lhs.scene == rhs.scene && lhs.sessions == rhs.sessions && lhs.background == rhs.background
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "callbackID": .integer(callbackID),
            "callback": .string(callback.rawValue),
            "state": .string(state.rawValue),
            "budgetMs": .double(budgetMs),
            "cause": .optional(cause, \.json),
        ]
        if let launch { object.append("launch", launch.json()) }
        if let scene { for (key, value) in scene.members { object.append(key, value) } }
        if !sessions.isEmpty { object.append("sessions", .array(sessions.map { .integer(Int64($0.number)) })) }
        if let background { for (key, value) in background.members { object.append(key, value) } }
        return .object(object)
    }
}

/// The result an app answers a callback request with, once its delegate method returned.
///
/// A plain value (`Sendable`). Wire form: `{"handlerMs":1.234}`, `{"handlerMs":3.5,"handlerFailed":true}` or `{}` —
/// `handlerMs` (optional, finite, from 0 to `maxHandlerMs`) is the app's own measure of its handler's duration; the
/// broker times the round trip itself either way, and counts an answer whose `handlerMs` is out of range as an
/// answer without one. `handlerFailed` (optional, default `false`): the handler ran to its end but failed (a
/// `subscribe --on` hook that exited non-zero); the broker records it in the transition. `restoration` (optional,
/// any JSON value, kept as its text; `null` counts as absent): `stateRestorationActivity`'s payload, which the broker
/// keeps with the scene's session (ignored in other answers). `result` (optional): `didReceiveRemoteNotification`'s
/// fetch result (`newData`, `noData`, `failed`; ignored in other answers). `presentation` (optional, an array of
/// `banner`, `list`, `sound`, `badge`): `willPresentNotification`'s presentation options; absent or `[]`, none
/// (ignored in other answers).
public struct CallbackAnswer: Sendable, Equatable {
    /// The largest `handlerMs` accepted: one day, far beyond any budget.
    public static let maxHandlerMs: Double = 86_400_000

    public var handlerMs: Double?
    public var handlerFailed: Bool
    /// A silent push's fetch result (`didReceiveRemoteNotification`); `nil` when the answer does not say.
    public var result: BackgroundFetchResult?
    /// A visible notification's presentation options (`willPresentNotification`); `nil` when the answer does not
    /// say, which counts as none.
    public var presentation: NotificationPresentationOptions?
    /// JSON text.
    public var restoration: String? {
        get { restorationBox?.text }
        set { restorationBox = newValue.map(RestorationBox.init) }
    }

    /// `restoration`, held out of line: one optional reference keeps the answer (one per app per event, inside a
    /// `Result` with `RPCError`) cheap to move and destroy; an optional string in it made the broker destroy every
    /// answer through generic value witnesses (~100 instructions per callback under callgrind).
    private var restorationBox: RestorationBox?

    /// Whether the answer carries a restoration payload (without copying it out).
    public var hasRestoration: Bool { restorationBox != nil }

    private final class RestorationBox: Sendable {
        let text: String

        init(_ text: String) {
            self.text = text
        }
    }

    public init(
        handlerMs: Double? = nil, handlerFailed: Bool = false, restoration: String? = nil,
        result: BackgroundFetchResult? = nil, presentation: NotificationPresentationOptions? = nil
    ) {
        self.handlerMs = handlerMs
        self.handlerFailed = handlerFailed
        self.restoration = restoration
        self.result = result
        self.presentation = presentation
    }

    public static func == (lhs: CallbackAnswer, rhs: CallbackAnswer) -> Bool {
        lhs.handlerMs == rhs.handlerMs && lhs.handlerFailed == rhs.handlerFailed && lhs.restoration == rhs.restoration
            && lhs.result == rhs.result && lhs.presentation == rhs.presentation
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        handlerMs = try reader.optionalDouble("handlerMs", maximum: Self.maxHandlerMs)
        handlerFailed = try reader.bool("handlerFailed", default: false)
        restoration = reader.optional("restoration").map(\.jsonText)
        result = try reader.optionalChoice("result", as: BackgroundFetchResult.self)
        presentation = try reader.optional("presentation").map { value throws(RPCError) in
            try NotificationPresentationOptions(json: value, field: reader.path("presentation"))
        }
    }

    public var json: JSONValue {
        var object: JSONObject = [:]
        if let handlerMs { object.append("handlerMs", .double(handlerMs)) }
        if handlerFailed { object.append("handlerFailed", .bool(true)) }
        if let restoration { object.append("restoration", JSONValue(embedding: restoration)) }
        if let result { object.append("result", .string(result.rawValue)) }
        if let presentation { object.append("presentation", presentation.json) }
        return .object(object)
    }
}
