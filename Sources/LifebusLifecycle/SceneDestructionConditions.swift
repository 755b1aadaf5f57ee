/// `UIScene.destructionConditions` (iOS 26+): when the scenes of an app are destroyed — their sessions discarded,
/// `didDiscardSceneSessions` sent — instead of kept for restoration. An app declares them at `hello` (member
/// `destructionConditions`) for every scene it connects, as an app does that sets them in `willConnectTo`.
/// Profiles before `ios26` ignore them, as a device without the API does (`Profile.hasDestructionConditions`).
///
/// A set of two flags. The wire spells each by `name`.
public struct SceneDestructionConditions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// "Destroyed when dismissed by the user. For example, swiping home on iOS": `home` discards the app's shown
    /// scenes' sessions (S42).
    public static let userInitiatedDismissal = SceneDestructionConditions(rawValue: 1)
    /// "Destroyed when disconnected by the system. For example, terminating the process, or rebooting the device":
    /// a process end discards every session of the app (S43, S44).
    public static let systemDisconnection = SceneDestructionConditions(rawValue: 2)

    /// Each condition with its wire name, in wire order.
    public static let named: [(name: String, condition: SceneDestructionConditions)] = [
        ("userInitiatedDismissal", .userInitiatedDismissal), ("systemDisconnection", .systemDisconnection),
    ]

    /// The wire names of the conditions in the set, in wire order.
    public var names: [String] {
        Self.named.filter { contains($0.condition) }.map(\.name)
    }
}
