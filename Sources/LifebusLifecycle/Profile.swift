/// The device's behaviour set, chosen when the broker starts. `ios7` is the default.
///
/// - `ios3`: no multitasking; leaving the foreground terminates the app.
/// - `ios4`: multitasking; locking the device only resigns the front app.
/// - `ios7`: multitasking; locking also sends the front app to the background.
///
/// Adding one: ARCHITECTURE.md's "Adding a profile"; `ProfileTablesTests` drives every case through the tables.
public enum Profile: String, Sendable, CaseIterable, Hashable {
    case ios3
    case ios4
    case ios7

    /// Whether apps may run in the background at all under this profile.
    public var hasMultitasking: Bool {
        self != .ios3
    }
}
