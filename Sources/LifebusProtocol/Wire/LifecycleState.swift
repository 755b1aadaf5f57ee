/// The lifecycle state of an app as the broker tracks it (UIKit's `UIApplication.State` plus the process-level
/// states iOS keeps). A plain value (`Sendable`); the raw value is the wire spelling.
///
/// `notRunning`: no process (never launched, exited, killed). `inactive`: in the foreground without events
/// (launching, interrupted by a call or alert). `active`: in the foreground receiving events. `background`:
/// running off screen (during `didEnterBackground`, a background task, or a background mode). `suspended`: in
/// memory, not running; the broker sends it nothing until it is woken.
public enum LifecycleState: String, Sendable, CaseIterable {
    case notRunning
    case inactive
    case active
    case background
    case suspended
}
