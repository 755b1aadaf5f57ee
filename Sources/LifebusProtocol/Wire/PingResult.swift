@_spi(RawJSON) public import LifebusJSON

/// The result of `ping`: `{"pong":true,"brokerTime":<monotonic nanoseconds>}`.
///
/// A plain value (`Sendable`). `brokerTime` is the broker's monotonic clock when it answered, passed in by the
/// caller (this module never reads a clock); only differences between two of them mean anything.
public struct PingResult: Sendable, Equatable {
    public var brokerTime: Int64

    public init(brokerTime: Int64) {
        self.brokerTime = brokerTime
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        guard try reader.bool("pong", default: false) else {
            throw RPCError.invalidParams(field: "pong", "must be true")
        }
        brokerTime = try reader.integer("brokerTime", as: Int64.self)
    }

    public var json: JSONValue {
        // Built as its members (one allocation), not from a dictionary literal (two).
        .object(JSONObject(uncheckedMembers: [
            (key: "pong", value: true), (key: "brokerTime", value: .integer(brokerTime)),
        ]))
    }
}
