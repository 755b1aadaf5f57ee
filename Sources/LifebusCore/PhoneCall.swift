/// The phone call, apart from the alert on screen. A ringing call takes the screen as an alert does; a call in
/// progress remembers the app that was in front when it was answered (by index into `Device.apps`), to bring it
/// back when the call ends (`nil` once that app is gone).
enum PhoneCall: Sendable, Equatable {
    case idle
    case ringing
    case inProgress(returnTo: Int?)
}
