import LifebusLifecycle

extension FireParams {
    /// The event as a person would type it to the CLI, used as `EventCause.event` and `FireResult.event`:
    /// `call`, `call --answer`, `sms --reply`, `memory-warning --level critical`, `launch X`, `activate X`,
    /// `terminate --app X --by-user`. Members that were not given are not spelled (so `call` and `call --ring`
    /// stay apart, as typed); `wait` is never spelled. `init(label:)` reads it back.
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

    /// The params a label spells (`wait` true); `nil` for words that are not a valid `fire` (an unknown word, a
    /// missing app, an action the event does not take), which a journal from a newer broker might hold.
    public init?(label: String) {
        let words = label.split(separator: " ").map(String.init)
        guard let first = words.first, let event = FireEvent(rawValue: first) else { return nil }
        self.init(event: event)
        var rest = words.dropFirst()
        while let word = rest.popFirst() {
            switch word {
            case "--app":
                guard let app = rest.popFirst() else { return nil }
                self.app = app
            case "--level":
                guard let level = rest.popFirst().flatMap(MemoryWarningLevel.init(rawValue:)) else { return nil }
                self.level = level
            case "--by-user":
                byUser = true
            case _ where word.hasPrefix("--"):
                guard let action = Action(rawValue: String(word.dropFirst(2))) else { return nil }
                self.action = action
            default:
                app = word
            }
        }
        guard (try? validate()) != nil else { return nil }
    }
}
