public import LifebusJSON
public import LifebusLifecycle

/// The journal line that opens a broker run (and each journal file the run writes): which broker, with which
/// settings, started when, so journals that mix runs can be told apart and their times read.
///
/// A plain value (`Sendable`). Wire form (every member written):
/// `{"type":"run","seq":41,"reason":"start","brokerVersion":"0.1.0","protocolVersion":1,"profile":"ios7",
/// "timeScale":1,"clock":"monotonic","pid":4242,"startedWallMs":1763780000000,"atMs":0.2,"wallMs":1763780000000}`
/// — `reason` says why the line was written (`start`: the run begins; `rotated` / `reopened`: the run goes on in a
/// new file); `clock` names the clock of the run's `…Ms` times, which count from 0 at `startedWallMs` (Unix
/// milliseconds, the same in every run record of one run); `atMs` and `wallMs` are when this line was written. Under
/// a profile with scenes the record adds `scenes` (`RunSceneKnobs`: the profile's knobs and the scene-order seed)
/// after `wallMs`, and under one with data protection `background` (`RunBackgroundKnobs`) after it; under
/// `ios3`/`ios4`/`ios7` it has neither and its bytes are what they were before scenes.
public struct RunRecord: Sendable, Equatable {
    /// The value of the `type` member.
    public static let type = "run"
    /// The clock every `…Ms` time of a run is measured on.
    public static let monotonicClock = "monotonic"

    /// Why a run record was written.
    public enum Reason: String, Sendable, CaseIterable {
        /// The broker started: the records after it belong to a new run.
        case start
        /// The journal reached its size cap and the run continues in a fresh file.
        case rotated
        /// The journal file was reopened (SIGHUP, after logrotate moved it) and the run continues there.
        case reopened
    }

    public var seq: Int64
    public var reason: Reason
    public var brokerVersion: String
    public var protocolVersion: Int64
    public var profile: Profile
    public var timeScale: Double
    public var clock: String
    public var pid: Int32
    public var startedWallMs: Int64
    public var atMs: Double
    public var wallMs: Int64
    /// The profile's scene knobs and the scene-order seed; `nil` under a profile without scenes.
    public var scenes: RunSceneKnobs?
    /// The background-execution and data-protection knobs; `nil` under a profile without data protection.
    public var background: RunBackgroundKnobs?
    /// The device's power and network at start (`lifebusd --power`, `--network`): `"power"` and `"network"`,
    /// written only when not the default (`external`, `online`); `nil` then.
    public var conditions: DeviceConditions?

    public init(
        seq: Int64, reason: Reason, brokerVersion: String, protocolVersion: Int64, profile: Profile,
        timeScale: Double, clock: String = RunRecord.monotonicClock, pid: Int32, startedWallMs: Int64, atMs: Double,
        wallMs: Int64, scenes: RunSceneKnobs? = nil, background: RunBackgroundKnobs? = nil,
        conditions: DeviceConditions? = nil
    ) {
        self.seq = seq
        self.reason = reason
        self.brokerVersion = brokerVersion
        self.protocolVersion = protocolVersion
        self.profile = profile
        self.timeScale = timeScale
        self.clock = clock
        self.pid = pid
        self.startedWallMs = startedWallMs
        self.atMs = atMs
        self.wallMs = wallMs
        self.scenes = scenes
        self.background = background
        self.conditions = conditions
    }

    /// Reads a record; `type`, when present, must be `"run"`.
    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        try reader.expectType(Self.type)
        seq = try reader.integer("seq", as: Int64.self, minimum: 1)
        reason = try reader.choice("reason", as: Reason.self)
        brokerVersion = try reader.string("brokerVersion")
        protocolVersion = try reader.integer("protocolVersion", as: Int64.self, minimum: 1)
        profile = try reader.choice("profile", as: Profile.self)
        timeScale = try reader.double("timeScale")
        clock = try reader.string("clock")
        pid = try reader.integer("pid", as: Int32.self)
        startedWallMs = try reader.integer("startedWallMs", as: Int64.self)
        atMs = try reader.double("atMs")
        wallMs = try reader.integer("wallMs", as: Int64.self)
        scenes = reader.optional("scenes") == nil ? nil : try RunSceneKnobs(reader: try reader.nested("scenes"))
        background = reader.optional("background") == nil
            ? nil : try RunBackgroundKnobs(reader: try reader.nested("background"))
        let power = try reader.optionalChoice("power", as: PowerSource.self)
        let network = try reader.optionalChoice("network", as: NetworkState.self)
        conditions = power == nil && network == nil
            ? nil : DeviceConditions(power: power ?? .external, network: network ?? .online)
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "type": .string(Self.type),
            "seq": .integer(seq),
            "reason": .string(reason.rawValue),
            "brokerVersion": .string(brokerVersion),
            "protocolVersion": .integer(protocolVersion),
            "profile": .string(profile.rawValue),
            "timeScale": .double(timeScale),
            "clock": .string(clock),
            "pid": .integer(Int64(pid)),
            "startedWallMs": .integer(startedWallMs),
            "atMs": .double(atMs),
            "wallMs": .integer(wallMs),
        ]
        if let scenes { object.append("scenes", scenes.json) }
        if let background { object.append("background", background.json) }
        if let conditions {
            object.append("power", .string(conditions.power.rawValue))
            object.append("network", .string(conditions.network.rawValue))
        }
        return .object(object)
    }
}
