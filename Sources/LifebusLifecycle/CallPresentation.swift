/// How an incoming call shows while the device is unlocked (`lifebusd --call-presentation`; `Protocol/lifecycle.md`,
/// "Calls as a banner"). The raw value is the wire spelling. Only profiles with the compact call banner
/// (`Profile.hasCompactCallBanner`: iOS 14+, `ios15` and later here) read it; before them, and behind the lock, a call
/// always takes the whole screen.
///
/// - `fullScreen`: the call takes the screen as an alert does: ringing resigns the front app (R01), answering sends
///   it to the background (R03). The default: the documented behaviour (SCENES.md §2 row 4), the same under every
///   profile; Settings › Phone › Incoming Calls, whose default on a device is Banner, is what `banner` emulates.
/// - `banner`: the compact banner (SCENES.md §2 row 4b, [inference]): ringing leaves the front app as it is;
///   answering opens the full-screen call UI over it, which resigns it until the call ends (an interruption, no
///   background).
/// - `seeded`: each call draws `banner` or `fullScreen` from the scene-order seed and the event's id, so a run with
///   the same seed and events replays the same presentations.
public enum CallPresentation: String, Sendable, Hashable, CaseIterable {
    case fullScreen
    case banner
    case seeded
}
