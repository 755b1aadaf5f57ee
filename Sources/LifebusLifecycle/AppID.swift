/// An app's identity (its bundle identifier), given by the app when it connects. The wire carries the raw string.
public struct AppID: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public static func < (lhs: AppID, rhs: AppID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String {
        rawValue
    }
}
