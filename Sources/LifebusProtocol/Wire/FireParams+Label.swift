extension FireParams {
    /// The event as a person would type it to the CLI, used as `EventCause.event` and `FireResult.event`:
    /// `call`, `call --answer`, `sms --reply`, `memory-warning --level critical`, `launch X`, `activate X`,
    /// `terminate --app X --by-user`. Members that were not given are not spelled (so `call` and `call --ring`
    /// stay apart, as typed); `wait` is never spelled.
    public var label: String {
        var label = event.rawValue  // appended to in place: no array of words to join
        if let action {
            label += " --"
            label += action.rawValue
        }
        if let app {
            label += event == .terminate ? " --app " : " "
            label += app
        }
        if let level {
            label += " --level "
            label += level.rawValue
        }
        if byUser { label += " --by-user" }
        return label
    }
}
