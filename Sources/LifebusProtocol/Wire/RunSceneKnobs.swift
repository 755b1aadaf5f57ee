public import LifebusJSON
public import LifebusLifecycle

/// A run record's `scenes` member (`Protocol/README.md` §13), written only under a profile with scenes: the choices
/// the profile makes where iOS versions differ (its knobs) and the seed of the orders Apple does not document, so a
/// journal says how to replay its run.
///
/// A plain value. Wire form: `{"sceneSupport":"optional","switcherClose":"disconnectsAndDiscards",
/// "restoresInteractionState":true,"destructionConditions":false,"sceneOrderSeed":0,"callPresentation":"fullScreen"}`
/// — `sceneOrderSeed` an integer from 0 to 2^63 − 1; `callPresentation` (`CallPresentation`) only under a profile
/// with the compact call banner (`ios15`+), where the broker's `--call-presentation` is read.
public struct RunSceneKnobs: Sendable, Equatable {
    public var sceneSupport: SceneSupport
    public var switcherClose: SwitcherClose
    public var restoresInteractionState: Bool
    public var destructionConditions: Bool
    public var sceneOrderSeed: UInt64
    /// How a call shows on an unlocked device; `nil` under a profile without the compact banner (`ios13`).
    public var callPresentation: CallPresentation?

    /// The knobs of `profile` with `sceneOrderSeed` and `callPresentation` (kept only where the profile has the
    /// compact call banner); `nil` under a profile without scenes (`ios3`, `ios4`, `ios7`).
    public init?(profile: Profile, sceneOrderSeed: UInt64, callPresentation: CallPresentation = .fullScreen) {
        guard profile.sceneSupport != .none else { return nil }
        sceneSupport = profile.sceneSupport
        switcherClose = profile.switcherClose
        restoresInteractionState = profile.restoresInteractionState
        destructionConditions = profile.hasDestructionConditions
        self.sceneOrderSeed = sceneOrderSeed
        self.callPresentation = profile.hasCompactCallBanner ? callPresentation : nil
    }

    init(reader: ParamsReader) throws(RPCError) {
        let support = try reader.string("sceneSupport")
        guard let sceneSupport = SceneSupport(rawValue: support) else {
            throw RPCError.invalidParams(field: reader.path("sceneSupport"), "must be none, optional or required")
        }
        let close = try reader.string("switcherClose")
        guard let switcherClose = SwitcherClose(rawValue: close) else {
            throw RPCError.invalidParams(
                field: reader.path("switcherClose"), "must be terminates or disconnectsAndDiscards")
        }
        self.sceneSupport = sceneSupport
        self.switcherClose = switcherClose
        restoresInteractionState = try reader.bool("restoresInteractionState", default: false)
        destructionConditions = try reader.bool("destructionConditions", default: false)
        sceneOrderSeed = UInt64(try reader.integer("sceneOrderSeed", as: Int64.self, minimum: 0))
        callPresentation = try reader.optionalChoice("callPresentation", as: CallPresentation.self)
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "sceneSupport": .string(sceneSupport.rawValue),
            "switcherClose": .string(switcherClose.rawValue),
            "restoresInteractionState": .bool(restoresInteractionState),
            "destructionConditions": .bool(destructionConditions),
            "sceneOrderSeed": .integer(Int64(clamping: sceneOrderSeed)),
        ]
        if let callPresentation { object.append("callPresentation", .string(callPresentation.rawValue)) }
        return .object(object)
    }
}
