/// The phone call, apart from the alert on screen. A call ringing over the whole screen takes it as an alert does; one
/// ringing as a compact banner (`CallPresentation.banner`) leaves the front app alone. A call in progress answered
/// from the full screen remembers the app that was in front (by index into `Device.apps`), to bring it back when the
/// call ends (`nil` once that app is gone); one answered from the banner keeps its full-screen UI over the front app,
/// which it resigns until the call ends.
enum PhoneCall: Sendable, Equatable {
    case idle
    case ringing
    case ringingAsBanner
    case inProgress(returnTo: Int?)
    case answeredFromBanner

    /// The call's UI covers the front app: it is resigned (`inactive`) while this holds.
    var coversFront: Bool {
        self == .ringing || self == .answeredFromBanner
    }

    /// The call rings, over the screen or as a banner.
    var isRinging: Bool {
        self == .ringing || self == .ringingAsBanner
    }
}
