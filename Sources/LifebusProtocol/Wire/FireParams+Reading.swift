@_spi(RawJSON) public import LifebusJSON
import LifebusLifecycle

/// Reading `fire` params straight from their text when a controller writes them as the CLI and the SDK do, so a fire
/// builds no JSON tree on its way to the machine (`RPCCodec` reads a canonical `fire` line this way).
extension FireParams {
    /// Which optional members the text held (`event` always does), so `json(members:)` gives back the very object
    /// parsing the text would have (a member present as `null` is not an absent one to `JSONValue`'s equality).
    public struct Members: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let action = Members(rawValue: 1 << 0)
        public static let app = Members(rawValue: 1 << 1)
        public static let level = Members(rawValue: 1 << 2)
        public static let byUser = Members(rawValue: 1 << 3)
        public static let wait = Members(rawValue: 1 << 4)
        /// What `json` writes: every member.
        public static let all: Members = [.action, .app, .level, .byUser, .wait]
    }

    private static let eventSpellings = ShortSpellings<FireEvent>()
    private static let actionSpellings = ShortSpellings<Action>()
    private static let levelSpellings = ShortSpellings<MemoryWarningLevel>()

    /// Reads `{"event":E,"action":A,"app":P,"level":L,"byUser":B,"wait":W}` in that order, every member but `event`
    /// optional, E a string, A, P and L strings or `null` and B and W booleans, strings of printable ASCII without
    /// escapes, no whitespace; `nil` for any other text, and for params that break the type's invariants: both then
    /// take the general path (parse, then `init(json:)`), which says what is wrong.
    ///
    /// Same outcome as `init(json:)` on the parsed text whenever it answers: each value passes the same reader (a
    /// spelling of the same enum, the same `validate()`), and no other member can be present to be ignored.
    public static func readCanonical(_ text: UnsafeRawBufferPointer) -> (params: FireParams, members: Members)? {
        var scanner = JSONScanner(text)
        guard scanner.consume("{\"event\":"), let event = scanner.plainChoice(Self.eventSpellings) else { return nil }
        guard let action = scanner.nullableMember(",\"action\":", { $0.plainChoice(Self.actionSpellings) }),
            let app = scanner.nullableMember(",\"app\":", { $0.plainString().map(Self.string) }),
            let level = scanner.nullableMember(",\"level\":", { $0.plainChoice(Self.levelSpellings) })
        else { return nil }
        var params = FireParams(event: event, action: action.value, app: app.value, level: level.value)
        var members: Members = []
        if action.present { members.insert(.action) }
        if app.present { members.insert(.app) }
        if level.present { members.insert(.level) }
        if scanner.consume(",\"byUser\":") {
            guard let byUser = scanner.literalBool() else { return nil }
            members.insert(.byUser)
            params.byUser = byUser
        }
        if scanner.consume(",\"wait\":") {
            guard let wait = scanner.literalBool() else { return nil }
            members.insert(.wait)
            params.wait = wait
        }
        guard scanner.consume("}"), scanner.index == scanner.count, (try? params.validate()) != nil else { return nil }
        return (params, members)
    }

    private static func string(_ text: UnsafeRawBufferPointer) -> String {
        String(decoding: text, as: UTF8.self)
    }

    /// The params as the object of `members` (in the wire order, absent values as `null`): what parsing the text
    /// `readCanonical` read gives.
    public func json(members: Members) -> JSONValue {
        var object: [(String, JSONValue)] = [("event", .string(event.rawValue))]
        if members.contains(.action) { object.append(("action", .optional(action) { .string($0.rawValue) })) }
        if members.contains(.app) { object.append(("app", .optional(app, JSONValue.string))) }
        if members.contains(.level) { object.append(("level", .optional(level) { .string($0.rawValue) })) }
        if members.contains(.byUser) { object.append(("byUser", .bool(byUser))) }
        if members.contains(.wait) { object.append(("wait", .bool(wait))) }
        object.append(contentsOf: sceneMembersJSON)
        return .object(JSONObject(object))
    }

    /// Params `readCanonical` read that name no app, with the members their text held, packed in one word: what a
    /// request carries when decoded with `FireParams.paramsPacking`. Each enum is stored as its `position` in
    /// `allCases` (plus one where absent is zero) in a field of the width below; `PackedFireParamsTests` checks each
    /// `allCases` fits its field, so a case added beyond a width fails there, not silently in a request.
    struct Packed: Sendable, Equatable {
        let bits: UInt32

        init(bits: UInt32) {
            self.bits = bits
        }

        /// The field widths, in bits, in the word's order from its lowest bit.
        static let eventBits = 4, actionBits = 5, levelBits = 2
        private static let actionShift = eventBits, levelShift = actionShift + actionBits
        private static let byUserShift = levelShift + levelBits, waitShift = byUserShift + 1
        private static let membersShift = waitShift + 1

        /// `nil` for params that name an app or carry scene members.
        init?(_ params: FireParams, members: Members) {
            guard params.named == nil else { return nil }
            var bits = UInt32(params.event.position)
            bits |= UInt32(params.action.map { $0.position + 1 } ?? 0) << Self.actionShift  // 0 for none
            bits |= UInt32(params.level.map { $0.position + 1 } ?? 0) << Self.levelShift  // 0 for none
            bits |= (params.byUser ? 1 : 0) << Self.byUserShift
            bits |= (params.wait ? 1 : 0) << Self.waitShift
            bits |= UInt32(members.rawValue) << Self.membersShift
            self.bits = bits
        }

        var members: Members { Members(rawValue: UInt8(truncatingIfNeeded: bits >> Self.membersShift)) }

        var params: FireParams {
            let action = Self.field(bits >> Self.actionShift, Self.actionBits)
            let level = Self.field(bits >> Self.levelShift, Self.levelBits)
            return FireParams(
                event: FireEvent(position: Self.field(bits, Self.eventBits)),
                action: action == 0 ? nil : Action(position: action - 1),
                level: level == 0 ? nil : MemoryWarningLevel(position: level - 1),
                byUser: bits >> Self.byUserShift & 1 == 1,
                wait: bits >> Self.waitShift & 1 == 1
            )
        }

        /// The low `width` bits of `word`.
        private static func field(_ word: UInt32, _ width: Int) -> Int {
            Int(word & (1 << UInt32(width) - 1))
        }
    }
}
