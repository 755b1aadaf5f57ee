public import LifebusLifecycle

/// The scene members of a scene transition's record (`scene`, `session`, `sceneFrom`, `sceneTo`; `Protocol/README.md`
/// §13): which scene of which session moved, and between which scene states. The record's `from`/`to` stay the
/// app's aggregate states.
///
/// A plain value of a few bytes, no references: the records that carry it (`TransitionRecord`, `JournaledTransition`)
/// copy it for free. A record of the app alone has none, and its text is what it was before scenes.
public struct TransitionScene: Sendable, Hashable {
    public var scene: SceneID
    public var session: SceneSessionID
    public var from: SceneState
    public var to: SceneState

    public init(scene: SceneID, session: SceneSessionID, from: SceneState, to: SceneState) {
        self.scene = scene
        self.session = session
        self.from = from
        self.to = to
    }

    /// Reads the members from a record; `nil` when it has no `scene`. Each member is checked whether or not `scene`
    /// is there; with `scene`, the other three are required.
    init?(reader: ParamsReader) throws(RPCError) {
        let scene = try reader.optionalInteger("scene", as: UInt32.self)
        let session = try reader.optionalInteger("session", as: UInt32.self)
        let from = try reader.optionalChoice("sceneFrom", as: SceneState.self)
        let to = try reader.optionalChoice("sceneTo", as: SceneState.self)
        if scene == 0 { throw RPCError.invalidParams(field: reader.path("scene"), "must be at least 1") }
        if session == 0 { throw RPCError.invalidParams(field: reader.path("session"), "must be at least 1") }
        guard let scene else { return nil }
        guard let session, let from, let to else {
            throw RPCError.invalidParams(
                field: reader.path("session"), "session, sceneFrom and sceneTo come with scene")
        }
        self.init(scene: SceneID(scene), session: SceneSessionID(session), from: from, to: to)
    }
}
