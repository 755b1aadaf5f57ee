public import LifebusJSON
public import LifebusLifecycle

/// What a scene callback's request says of its scene (`Protocol/README.md` §10.1): which scene of which session, the
/// scene's state while the callback runs, the `UIApplication` notification UIKit posts with it on an edge of the
/// app's aggregate state, the connection options (`willConnectTo`, `openURLContexts`) and the session's restoration
/// payload (`willConnectTo`, `restoreInteractionState`).
///
/// A plain value. The JSON payloads (`options.notificationResponse`, `options.userActivity`, `restoration`) are
/// JSON texts, valid by construction (the broker read each from a peer's JSON), written into the request as they
/// are: the broker never translates them.
public struct CallbackScene: Sendable, Hashable {
    public var scene: SceneID
    public var session: SceneSessionID
    public var sceneState: SceneState
    public var posts: ApplicationNotification?
    public var options: SceneConnectionOptions?
    /// JSON text.
    public var restoration: String?

    public init(
        scene: SceneID, session: SceneSessionID, sceneState: SceneState, posts: ApplicationNotification? = nil,
        options: SceneConnectionOptions? = nil, restoration: String? = nil
    ) {
        self.scene = scene
        self.session = session
        self.sceneState = sceneState
        self.posts = posts
        self.options = options
        self.restoration = restoration
    }

    /// Reads the scene members of a callback's params; `nil` when they hold no `scene` (an app-level callback).
    /// Each member is checked whether or not `scene` is there; with `scene`, `session` and `sceneState` are required.
    init?(reader: ParamsReader) throws(RPCError) {
        let scene = try reader.optionalInteger("scene", as: UInt32.self)
        let session = try reader.optionalInteger("session", as: UInt32.self)
        let sceneState = try reader.optionalChoice("sceneState", as: SceneState.self)
        posts = try reader.optionalChoice("posts", as: ApplicationNotification.self)
        options = try reader.optional("options").map { value throws(RPCError) in
            try SceneConnectionOptions(json: value, field: reader.path("options"))
        }
        restoration = reader.optional("restoration").map(\.jsonText)
        if scene == 0 { throw RPCError.invalidParams(field: reader.path("scene"), "must be at least 1") }
        if session == 0 { throw RPCError.invalidParams(field: reader.path("session"), "must be at least 1") }
        guard let scene else { return nil }
        guard let session else { throw RPCError.invalidParams(field: reader.path("session"), "is required with scene") }
        guard let sceneState else {
            throw RPCError.invalidParams(field: reader.path("sceneState"), "is required with scene")
        }
        self.scene = SceneID(scene)
        self.session = SceneSessionID(session)
        self.sceneState = sceneState
    }

    /// The members, in the writer's order (after the app-level ones).
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("scene", .integer(Int64(scene.number))),
            ("session", .integer(Int64(session.number))),
            ("sceneState", .string(sceneState.rawValue)),
            ("posts", .optional(posts) { .string($0.rawValue) }),
        ]
        if let options { members.append(("options", options.json)) }
        if let restoration { members.append(("restoration", JSONValue(embedding: restoration))) }
        return members
    }
}

extension SceneConnectionOptions {
    /// The wire form (`options` of a callback request): `{"urlContexts":["notes://7"],"notificationResponse":{…},
    /// "userActivity":{…}}`, the two payloads only when present, written as the JSON values their texts hold.
    public var json: JSONValue {
        var object: JSONObject = ["urlContexts": .array(urlContexts.map(JSONValue.string))]
        if let notificationResponse {
            object.append("notificationResponse", JSONValue(embedding: notificationResponse))
        }
        if let userActivity { object.append("userActivity", JSONValue(embedding: userActivity)) }
        return .object(object)
    }

    /// Reads the wire form; -32602 naming `field`'s member on a wrong one.
    public init(json: JSONValue, field: String = "options") throws(RPCError) {
        let reader = try ParamsReader(json, path: field)
        self.init(
            urlContexts: try reader.stringArray("urlContexts"),
            notificationResponse: reader.optional("notificationResponse").map(\.jsonText),
            userActivity: reader.optional("userActivity").map(\.jsonText))
    }
}

extension JSONValue {
    /// The value a JSON text holds, for writing it into a larger message; `.null` for a text that is not JSON (the
    /// broker keeps only texts it parsed, so that cannot happen on its paths).
    init(embedding text: String) {
        self = (try? JSONParser.parse(text)) ?? .null
    }
}
