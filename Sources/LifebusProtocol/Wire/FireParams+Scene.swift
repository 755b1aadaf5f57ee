import LifebusJSON
public import LifebusLifecycle

/// The scene members of `fire` (`Protocol/README.md` §11.1): which scene or session a `scene` event names, and the
/// connection options a new window or a cold start carries (`url`, `activity`, `push`). Each is taken only where
/// `validate()` says; none is written when absent, so the params of every other event keep their text (and the
/// canonical reader, which knows none of these members, reads them as before).
extension FireParams {
    /// `scene close|reclaim|focus`: the scene (`close` without one closes the whole app).
    public var scene: SceneID? {
        get { named?.scene }
        set { setNamed(scene: .some(newValue)) }
    }

    /// `scene reconnect`: the session to reconnect.
    public var session: SceneSessionID? {
        get { named?.session }
        set { setNamed(session: .some(newValue)) }
    }

    /// `scene open`, `launch`: the URL the scene connects with (`UIScene.ConnectionOptions.urlContexts`).
    public var url: String? {
        get { named?.url }
        set { setNamed(url: .some(newValue)) }
    }

    /// `scene open`: the user activity (JSON text of an object).
    public var activity: String? {
        get { named?.activity }
        set { setNamed(activity: .some(newValue)) }
    }

    /// `launch`: the tapped notification's payload (JSON text of an object).
    public var push: String? {
        get { named?.push }
        set { setNamed(push: .some(newValue)) }
    }

    /// `bgtask`: the task's identifier (required).
    public var identifier: String? {
        get { named?.identifier }
        set { setNamed(identifier: .some(newValue)) }
    }

    /// `push`: the notification's payload (JSON text of an object; `{}` when not given).
    public var payload: String? {
        get { named?.payload }
        set { setNamed(payload: .some(newValue)) }
    }

    /// What the scene's connection options are, for the device: `nil` when neither `url`, `activity` nor `push` was
    /// given.
    public var connectionOptions: SceneConnectionOptions? {
        guard url != nil || activity != nil || push != nil else { return nil }
        return SceneConnectionOptions(urlContexts: url.map { [$0] } ?? [], notificationResponse: push,
                                      userActivity: activity)
    }

    /// Whether any scene member is given.
    var hasSceneMembers: Bool {
        named.map {
            $0.scene != nil || $0.session != nil || $0.url != nil || $0.activity != nil || $0.push != nil
                || $0.identifier != nil || $0.payload != nil
        } ?? false
    }

    mutating func setNamed(
        app: String?? = nil, scene: SceneID?? = nil, session: SceneSessionID?? = nil, url: String?? = nil,
        activity: String?? = nil, push: String?? = nil, identifier: String?? = nil, payload: String?? = nil
    ) {
        named = .make(
            app: app ?? self.app, scene: scene ?? self.scene, session: session ?? self.session, url: url ?? self.url,
            activity: activity ?? self.activity, push: push ?? self.push, identifier: identifier ?? self.identifier,
            payload: payload ?? self.payload)
    }

    /// Reads the scene members (JSON payloads kept as their compact text); -32602 naming a wrong one.
    mutating func readSceneMembers(_ reader: ParamsReader) throws(RPCError) {
        let scene = try reader.optionalInteger("scene", as: UInt32.self)
        let session = try reader.optionalInteger("session", as: UInt32.self)
        if scene == 0 { throw RPCError.invalidParams(field: "scene", "must be at least 1") }
        if session == 0 { throw RPCError.invalidParams(field: "session", "must be at least 1") }
        let url = try reader.optionalString("url")
        if url?.isEmpty == true { throw RPCError.invalidParams(field: "url", "must not be empty") }
        setNamed(
            scene: .some(scene.map { SceneID($0) }), session: .some(session.map { SceneSessionID($0) }),
            url: .some(url),
            activity: .some(try reader.optionalObject("activity").map { JSONValue.object($0).jsonText }),
            push: .some(try reader.optionalObject("push").map { JSONValue.object($0).jsonText }),
            identifier: .some(try reader.has("identifier") ? reader.taskIdentifier("identifier") : nil),
            payload: .some(try reader.optionalObject("payload").map { JSONValue.object($0).jsonText }))
    }

    /// The scene members that are present, in the wire order.
    var sceneMembersJSON: [(String, JSONValue)] {
        guard let members = named else { return [] }
        var object: [(String, JSONValue)] = []
        if let scene = members.scene { object.append(("scene", .integer(Int64(scene.number)))) }
        if let session = members.session { object.append(("session", .integer(Int64(session.number)))) }
        if let url = members.url { object.append(("url", .string(url))) }
        if let activity = members.activity { object.append(("activity", JSONValue(embedding: activity))) }
        if let push = members.push { object.append(("push", JSONValue(embedding: push))) }
        if let identifier = members.identifier { object.append(("identifier", .string(identifier))) }
        if let payload = members.payload { object.append(("payload", JSONValue(embedding: payload))) }
        return object
    }

    /// Checks the scene members against the event and action (the type's invariants); -32602 naming the member.
    func validateSceneMembers() throws(RPCError) {
        let sceneAction = event == .scene ? action : nil
        if let sceneAction, sceneAction == .reclaim || sceneAction == .focus, scene == nil {
            throw RPCError.invalidParams(field: "scene", "is required for scene \(sceneAction.rawValue)")
        }
        if scene != nil, ![.close, .reclaim, .focus].contains(sceneAction) {
            throw RPCError.invalidParams(field: "scene", "is only taken by scene close, reclaim and focus")
        }
        if sceneAction == .reconnect, session == nil {
            throw RPCError.invalidParams(field: "session", "is required for scene reconnect")
        }
        if session != nil, sceneAction != .reconnect {
            throw RPCError.invalidParams(field: "session", "is only taken by scene reconnect")
        }
        if url != nil, sceneAction != .open, event != .launch {
            throw RPCError.invalidParams(field: "url", "is only taken by scene open and launch")
        }
        if activity != nil, sceneAction != .open {
            throw RPCError.invalidParams(field: "activity", "is only taken by scene open")
        }
        if push != nil, event != .launch {
            throw RPCError.invalidParams(field: "push", "is only taken by launch")
        }
        if push != nil, url != nil {
            throw RPCError.invalidParams(field: "push", "is not taken with url: a cold start has one or the other")
        }
        if event == .bgtask, identifier == nil {
            throw RPCError.invalidParams(field: "identifier", "is required for bgtask")
        }
        if identifier != nil, event != .bgtask {
            throw RPCError.invalidParams(field: "identifier", "is only taken by bgtask")
        }
        if payload != nil, event != .push {
            throw RPCError.invalidParams(field: "payload", "is only taken by push")
        }
    }
}

/// `fire`'s app and scene members, held out of line by `FireParams` as one reference (the params of an event that
/// names nothing hold none). Immutable: a change makes a new one.
final class FireNamed: Sendable, Equatable {
    let app: String?
    let scene: SceneID?
    let session: SceneSessionID?
    let url: String?
    /// JSON text of an object.
    let activity: String?
    /// JSON text of an object.
    let push: String?
    /// `bgtask`'s task identifier.
    let identifier: String?
    /// `push`'s payload, JSON text of an object.
    let payload: String?

    init(
        app: String?, scene: SceneID? = nil, session: SceneSessionID? = nil, url: String? = nil,
        activity: String? = nil, push: String? = nil, identifier: String? = nil, payload: String? = nil
    ) {
        self.app = app
        self.scene = scene
        self.session = session
        self.url = url
        self.activity = activity
        self.push = push
        self.identifier = identifier
        self.payload = payload
    }

    static func == (lhs: FireNamed, rhs: FireNamed) -> Bool {
        lhs.app == rhs.app && lhs.scene == rhs.scene && lhs.session == rhs.session && lhs.url == rhs.url
            && lhs.activity == rhs.activity && lhs.push == rhs.push && lhs.identifier == rhs.identifier
            && lhs.payload == rhs.payload
    }

    /// `nil` when every member is absent.
    static func make(
        app: String?, scene: SceneID?, session: SceneSessionID?, url: String?, activity: String?, push: String?,
        identifier: String?, payload: String?
    ) -> FireNamed? {
        guard app != nil || scene != nil || session != nil || url != nil || activity != nil || push != nil
            || identifier != nil || payload != nil
        else { return nil }
        return FireNamed(
            app: app, scene: scene, session: session, url: url, activity: activity, push: push, identifier: identifier,
            payload: payload)
    }
}
