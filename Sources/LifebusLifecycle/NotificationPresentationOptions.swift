/// How an app in the foreground asks the system to present a notification that arrived
/// (`UNNotificationPresentationOptions`, the completion handler's value of `willPresentNotification`). A plain set
/// of flags; the empty set is `UNNotificationPresentationOptionNone`, what an app that does not implement the method
/// gets ("the system behaves as if you had passed the UNNotificationPresentationOptionNone option").
///
/// Wire form: an array of `names` in `allOptions` order (`["banner","sound"]`, `[]` for none). iOS 13's `alert`
/// (deprecated in iOS 14 for `banner` and `list`) has no spelling of its own: [inference] it is `banner`.
public struct NotificationPresentationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Shown as a banner.
    public static let banner = NotificationPresentationOptions(rawValue: 1 << 0)
    /// Shown in Notification Center.
    public static let list = NotificationPresentationOptions(rawValue: 1 << 1)
    /// Its sound is played.
    public static let sound = NotificationPresentationOptions(rawValue: 1 << 2)
    /// The app's badge is set from it.
    public static let badge = NotificationPresentationOptions(rawValue: 1 << 3)

    /// Every option with its wire name, in wire order.
    public static let allOptions: [(name: String, option: NotificationPresentationOptions)] = [
        ("banner", .banner), ("list", .list), ("sound", .sound), ("badge", .badge),
    ]

    /// The wire names of the options set, in `allOptions` order; empty for none.
    public var names: [String] {
        Self.allOptions.filter { contains($0.option) }.map(\.name)
    }

    /// The option named `name` on the wire; `nil` for any other word.
    public init?(name: String) {
        guard let option = Self.allOptions.first(where: { $0.name == name })?.option else { return nil }
        self = option
    }

    /// The journal's and the CLI's spelling: the names joined by commas (`banner,sound`), `none` for none.
    public var summary: String {
        isEmpty ? "none" : names.joined(separator: ",")
    }
}
