public import LifebusLifecycle

/// The colours of the timeline pictures: one per lifecycle state and one per scene state (the same in every lane and
/// in the legend), and
/// the few marks drawn over them. Stateless; colours are `#rrggbb` so tests can look for them in rendered pixels.
public enum TimelinePalette {
    /// The fill of a state's bar.
    public static func color(of state: LifecycleState) -> String {
        switch state {
        case .notRunning: "#d9d9d9"
        case .inactive: "#f4b400"
        case .active: "#2e9e44"
        case .background: "#3b78e7"
        case .suspended: "#8e6cc8"
        }
    }

    /// The fill of a scene state's bar: a lighter tint of the app state it makes (`unattached` a mid grey).
    public static func color(of state: SceneState) -> String {
        switch state {
        case .unattached: "#a8a8a8"
        case .foregroundInactive: "#fad26b"
        case .foregroundActive: "#7cc98c"
        case .background: "#8fb1f0"
        }
    }

    /// A callback's budget outline and the fill of time used within it.
    public static let budget = "#5f6368"
    public static let used = "#202124"
    /// Time used past the budget, a failed ending, and its reason.
    public static let failure = "#d93025"
    /// An intended kill (terminate, `exitsOnSuspend`).
    public static let killed = "#5f6368"
    /// A controller event's line and label.
    public static let event = "#80868b"
    /// A mark's tick and name.
    public static let mark = "#e8710a"
    /// The tick of a `BGTask`'s expiration handler call.
    public static let expiring = "#b06000"
    /// The band of a stretch protected data was unavailable, drawn at `lockedOpacity` over the lanes.
    public static let locked = "#1a237e"
    public static let lockedOpacity = 0.12
    public static let text = "#202124"
    public static let background = "#ffffff"

    /// The red, green and blue of a `#rrggbb` colour.
    public static func rgb(_ hex: String) -> (red: Int, green: Int, blue: Int) {
        let digits = Array(hex.utf8.dropFirst())
        func byte(_ at: Int) -> Int {
            func nibble(_ c: UInt8) -> Int {
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c - UInt8(ascii: "a")) + 10
                default: 0
                }
            }
            return digits.count >= at + 2 ? nibble(digits[at]) * 16 + nibble(digits[at + 1]) : 0
        }
        return (byte(0), byte(2), byte(4))
    }
}
