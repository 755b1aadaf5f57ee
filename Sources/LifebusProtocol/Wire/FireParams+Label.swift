extension FireParams {
    /// The event as a person would type it to the CLI, used as `EventCause.event` and `FireResult.event`:
    /// `call`, `call --answer`, `sms --reply`, `memory-warning --level critical`, `launch X`, `activate X`,
    /// `terminate --app X --by-user`. Members that were not given are not spelled (so `call` and `call --ring`
    /// stay apart, as typed); `wait` is never spelled.
    public var label: String {
        var words = [event.rawValue]
        if let action { words.append("--" + action.rawValue) }
        if let app {
            if event == .terminate {
                words.append("--app")
            }
            words.append(app)
        }
        if let level { words.append("--level " + level.rawValue) }
        if byUser { words.append("--by-user") }
        return words.joined(separator: " ")
    }
}
