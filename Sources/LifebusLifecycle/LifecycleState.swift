/// The lifecycle state of one app (UIKit's `UIApplication.State` plus the process-level states iOS keeps). A plain
/// value; the raw value is the wire spelling.
///
/// `notRunning`: no process (never launched, exited, killed). `inactive`: in the foreground without events
/// (launching, interrupted by a call or alert). `active`: in the foreground receiving events. `background`:
/// running off screen (during `didEnterBackground`, a background task, or a background mode). `suspended`: in
/// memory, not running; the broker sends it nothing until it is woken. `active` and `inactive` are the foreground
/// states; at most one app is in either at a time.
public enum LifecycleState: String, Sendable, CaseIterable, Hashable {
    case notRunning
    case inactive
    case active
    case background
    case suspended

    /// `active` or `inactive`.
    public var isForeground: Bool {
        self == .active || self == .inactive
    }

    /// Any state but `notRunning`.
    public var isRunning: Bool {
        self != .notRunning
    }
}
