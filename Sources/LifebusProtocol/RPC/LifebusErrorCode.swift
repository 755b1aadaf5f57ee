/// A Lifebus-specific JSON-RPC error: a code in the server range −32000…−32099 and its reverse-domain name.
///
/// A plain value (`Sendable`). This file is THE table of Lifebus error codes: add new codes here (and to `all`
/// and `Protocol/README.md`); codes and names are never reused.
public struct LifebusErrorCode: Hashable, Sendable, CustomStringConvertible {
    public let code: Int
    public let name: String

    private init(_ code: Int, _ name: String) {
        self.code = code
        self.name = name
    }

    /// A request other than `hello` arrived before `hello`.
    public static let helloRequired = LifebusErrorCode(-32000, "lifebus.HelloRequired")
    /// A second `hello` on a connection.
    public static let alreadyIntroduced = LifebusErrorCode(-32001, "lifebus.AlreadyIntroduced")
    /// `hello` asked for a protocol version the broker does not speak.
    public static let unsupportedProtocolVersion = LifebusErrorCode(-32002, "lifebus.UnsupportedProtocolVersion")
    /// The method exists but the peer's role may not call it.
    public static let notAllowedForRole = LifebusErrorCode(-32003, "lifebus.NotAllowedForRole")
    /// Another connected app already uses this app id.
    public static let appIDInUse = LifebusErrorCode(-32004, "lifebus.AppIDInUse")
    /// No app with this id is known.
    public static let appNotFound = LifebusErrorCode(-32005, "lifebus.AppNotFound")
    /// A line exceeded the length limit; the connection is closed after this error.
    public static let lineTooLong = LifebusErrorCode(-32006, "lifebus.LineTooLong")
    /// No `hello` arrived in time; the connection is closed after this error.
    public static let helloTimeout = LifebusErrorCode(-32007, "lifebus.HelloTimeout")
    /// The broker refused to inject an event in the current state.
    public static let eventRejected = LifebusErrorCode(-32008, "lifebus.EventRejected")
    /// The broker is shutting down and accepts no new work.
    public static let brokerShuttingDown = LifebusErrorCode(-32009, "lifebus.BrokerShuttingDown")
    /// An operation did not finish within its deadline.
    public static let timedOut = LifebusErrorCode(-32010, "lifebus.TimedOut")
    /// The connection ended before the answer to a request came (raised locally, never sent).
    public static let connectionClosed = LifebusErrorCode(-32011, "lifebus.ConnectionClosed")
    /// A limit of the broker was reached (`data.limit` names which); see `Protocol/README.md` §15, "Limits".
    public static let limitExceeded = LifebusErrorCode(-32012, "lifebus.LimitExceeded")
    /// The journal cannot be written (ENOSPC, EIO…): what was asked is not recorded.
    public static let journalUnavailable = LifebusErrorCode(-32013, "lifebus.JournalUnavailable")
    /// A loopback TCP peer's `hello` lacked the broker's token or presented a wrong one; the connection is then
    /// closed.
    public static let unauthorized = LifebusErrorCode(-32020, "lifebus.Unauthorized")
    /// `advance` on a broker whose lifecycle runs on the real clock (`lifebusd --clock real`, the default).
    public static let clockNotManual = LifebusErrorCode(-32030, "lifebus.ClockNotManual")
    /// The broker could not start an installed app's process (`data.path`, `data.errno` say why).
    public static let launchFailed = LifebusErrorCode(-32031, "lifebus.LaunchFailed")
    /// An app said it adopts scenes (`hello`'s `app.scenes`) to a broker whose profile has none (`data.profile`).
    public static let scenesUnsupported = LifebusErrorCode(-32032, "lifebus.ScenesUnsupported")

    /// Every Lifebus error code, in code order.
    public static let all: [LifebusErrorCode] = [
        .helloRequired, .alreadyIntroduced, .unsupportedProtocolVersion, .notAllowedForRole, .appIDInUse,
        .appNotFound, .lineTooLong, .helloTimeout, .eventRejected, .brokerShuttingDown, .timedOut,
        .connectionClosed, .limitExceeded, .journalUnavailable, .unauthorized, .clockNotManual, .launchFailed,
        .scenesUnsupported,
    ]

    /// The Lifebus error code with this numeric code, if any.
    public init?(code: Int) {
        guard let found = Self.all.first(where: { $0.code == code }) else { return nil }
        self = found
    }

    public var description: String { "\(name) (\(code))" }
}

extension RPCError {
    /// The Lifebus code this error carries, when its code is one of ours.
    public var lifebusCode: LifebusErrorCode? { LifebusErrorCode(code: code) }
}
