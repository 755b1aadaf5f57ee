/// A connected scene (`UIScene`), numbered per app from 1 in connection order. A reconnect makes a new scene (a new
/// number) for the same session. The wire carries the number.
public struct SceneID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var number: UInt32

    public init(_ number: UInt32) {
        self.number = number
    }

    public static func < (lhs: SceneID, rhs: SceneID) -> Bool {
        lhs.number < rhs.number
    }

    public var description: String {
        "scene\(number)"
    }
}

/// A scene session (`UISceneSession.persistentIdentifier`), numbered per app from 1 in creation order. It survives
/// its scene's disconnects and the process's relaunches, and ends when the session is discarded (its number is never
/// reused). The wire carries the number.
public struct SceneSessionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var number: UInt32

    public init(_ number: UInt32) {
        self.number = number
    }

    public static func < (lhs: SceneSessionID, rhs: SceneSessionID) -> Bool {
        lhs.number < rhs.number
    }

    public var description: String {
        "session\(number)"
    }
}
