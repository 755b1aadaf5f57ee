public import LifebusJSON
public import LifebusLifecycle

/// One completed lifecycle transition of one app: a journal line and the params of the `transition`
/// notification observers receive.
///
/// A plain value (`Sendable`). Wire form (every member written, `null` for the absent ones):
/// `{"type":"transition","seq":17,"app":"com.example.DeepThoughts","pid":1234,"callback":"didEnterBackground",
/// "cause":{"eventID":3,"event":"call --answer"},"from":"inactive","to":"background","firedMs":10.5,
/// "sentMs":10.6,"answeredMs":13.1,"handlerMs":2.3,"budgetMs":5000,"outcome":"ok","handlerFailed":false,
/// "wallMs":1763780000000}`.
/// - `seq` (≥ 1) numbers journal entries (transitions and marks together) from 1.
/// - `callback` is `null` when the app left its state without one (jetsam, a kill by the user, a crash while
///   idle); `cause` is `null` when no controller event caused it; `pid`, `firedMs`, `answeredMs` and `handlerMs`
///   may be `null` (not known, never fired, never answered, not reported).
/// - `*Ms` are milliseconds (finite, ≥ 0) on the broker's monotonic clock since it started: `firedMs` when the
///   causing event was fired, `sentMs` when the callback was sent (or, without a callback, when the broker
///   acted), `answeredMs` when the answer came; `budgetMs` is the budget the callback had. `wallMs` is the Unix
///   time in milliseconds when the record was made.
/// - `handlerFailed` is `true` when the app answered but said its handler failed (a `subscribe --on` hook that
///   exited non-zero); a record without the member (an older journal) reads as `false`.
/// - A scene transition adds `scene` (`TransitionScene`: `scene`, `session`, `sceneFrom`, `sceneTo`) after `wallMs`;
///   a record of the app alone has none of them.
public struct TransitionRecord: Sendable, Equatable {
    /// The value of the `type` member.
    public static let type = "transition"

    public var seq: Int64
    public var app: String
    public var pid: Int32?
    public var callback: LifecycleCallback?
    /// `cause`, stored as a value and a flag (`EventCause.none` when there is none): an optional holding a string,
    /// in a struct this large, made the optimizer copy the whole record and destroy the original at the end of
    /// every initializer (two retains, two releases, 144 bytes copied per record).
    @usableFromInline private(set) var storedCause: EventCause
    @usableFromInline private(set) var hasCause: Bool
    public var from: LifecycleState
    public var to: LifecycleState
    public var firedMs: Double?
    public var sentMs: Double
    public var answeredMs: Double?
    public var handlerMs: Double?
    public var budgetMs: Double
    public var outcome: TransitionOutcome
    public var handlerFailed: Bool
    public var wallMs: Int64
    /// The scene that moved, for a scene transition.
    public var scene: TransitionScene?

    @inlinable
    public init(
        seq: Int64,
        app: String,
        pid: Int32?,
        callback: LifecycleCallback?,
        cause: EventCause?,
        from: LifecycleState,
        to: LifecycleState,
        firedMs: Double?,
        sentMs: Double,
        answeredMs: Double?,
        handlerMs: Double?,
        budgetMs: Double,
        outcome: TransitionOutcome,
        wallMs: Int64,
        handlerFailed: Bool = false,
        scene: TransitionScene? = nil
    ) {
        self.seq = seq
        self.app = app
        self.pid = pid
        self.callback = callback
        self.storedCause = cause ?? .none
        self.hasCause = cause != nil
        self.from = from
        self.to = to
        self.firedMs = firedMs
        self.sentMs = sentMs
        self.answeredMs = answeredMs
        self.handlerMs = handlerMs
        self.budgetMs = budgetMs
        self.outcome = outcome
        self.handlerFailed = handlerFailed
        self.wallMs = wallMs
        self.scene = scene
    }

    /// Reads a record; `type`, when present, must be `"transition"`.
    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(json: JSONValue, path: String) throws(RPCError) {
        try self.init(reader: try ParamsReader(json, path: path))
    }

    init(reader: ParamsReader) throws(RPCError) {
        try reader.expectType(Self.type)
        seq = try reader.integer("seq", as: Int64.self, minimum: 1)
        app = try reader.string("app")
        pid = try reader.optionalInteger("pid", as: Int32.self)
        callback = try reader.optionalChoice("callback", as: LifecycleCallback.self)
        let cause = try reader.optionalCause("cause")
        storedCause = cause ?? .none
        hasCause = cause != nil
        from = try reader.choice("from", as: LifecycleState.self)
        to = try reader.choice("to", as: LifecycleState.self)
        firedMs = try reader.optionalDouble("firedMs")
        sentMs = try reader.double("sentMs")
        answeredMs = try reader.optionalDouble("answeredMs")
        handlerMs = try reader.optionalDouble("handlerMs")
        budgetMs = try reader.double("budgetMs")
        outcome = try reader.choice("outcome", as: TransitionOutcome.self)
        handlerFailed = try reader.bool("handlerFailed", default: false)
        wallMs = try reader.integer("wallMs", as: Int64.self)
        scene = try TransitionScene(reader: reader)
    }

    public var cause: EventCause? {
        get { hasCause ? storedCause : nil }
        set {
            storedCause = newValue ?? .none
            hasCause = newValue != nil
        }
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "type": .string(Self.type),
            "seq": .integer(seq),
            "app": .string(app),
            "pid": .optional(pid) { .integer(Int64($0)) },
            "callback": .optional(callback) { .string($0.rawValue) },
            "cause": .optional(cause, \.json),
            "from": .string(from.rawValue),
            "to": .string(to.rawValue),
            "firedMs": .optional(firedMs, JSONValue.double),
            "sentMs": .double(sentMs),
            "answeredMs": .optional(answeredMs, JSONValue.double),
            "handlerMs": .optional(handlerMs, JSONValue.double),
            "budgetMs": .double(budgetMs),
            "outcome": .string(outcome.rawValue),
            "handlerFailed": .bool(handlerFailed),
            "wallMs": .integer(wallMs),
        ]
        if let scene {
            object.append("scene", .integer(Int64(scene.scene.number)))
            object.append("session", .integer(Int64(scene.session.number)))
            object.append("sceneFrom", .string(scene.from.rawValue))
            object.append("sceneTo", .string(scene.to.rawValue))
        }
        return .object(object)
    }
}
