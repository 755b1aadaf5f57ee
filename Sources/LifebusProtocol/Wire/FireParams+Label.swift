import LifebusJSON
import LifebusLifecycle

extension FireParams {
    /// The event as a person would type it to the CLI, used as `EventCause.event` and `FireResult.event`:
    /// `call`, `call --answer`, `sms --reply`, `memory-warning --level critical`, `launch X`, `activate X`,
    /// `terminate --app X --by-user`, `power battery`, `network offline` (an action an event requires is a word); a
    /// `scene` event's action is a word and its scene or session follows the app
    /// (`scene open X`, `scene close X 2`, `scene close --app X`, `scene reconnect X 1`); `--url U`, `--activity JSON`
    /// and `--push JSON` come last when given. Members that were not given are not spelled (so `call` and
    /// `call --ring` stay apart, as typed); `wait` is never spelled. `init(label:)` reads it back.
    public var label: String {
        var label = event.rawValue  // appended to in place: no array of words to join
        if event == .scene {
            return sceneLabel(label)
        }
        if let action {
            label += event.declaration.requiresAction ? " " : " --"  // a required action is a word: `power battery`
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
        if let identifier {
            label += " "
            label += identifier
        }
        if hasSceneMembers { appendOptions(to: &label) }
        return label
    }

    private func sceneLabel(_ start: String) -> String {
        var label = start
        if let action {
            label += " "
            label += action.rawValue
        }
        if action == .close, scene == nil { label += " --app" }
        if let app {
            label += " "
            label += app
        }
        if let number = scene?.number ?? session?.number { label += " \(number)" }
        appendOptions(to: &label)
        return label
    }

    private func appendOptions(to label: inout String) {
        if let url { label += " --url \(url)" }
        if let activity { label += " --activity \(activity)" }
        if let push { label += " --push \(push)" }
        if let payload { label += " --payload \(payload)" }
    }

    /// The params a label spells (`wait` true); `nil` for words that are not a valid `fire` (an unknown word, a
    /// missing app, an action the event does not take), which a journal from a newer broker might hold.
    public init?(label: String) {
        let words = label.split(separator: " ").map(String.init)
        guard let first = words.first, let event = FireEvent(rawValue: first) else { return nil }
        self.init(event: event)
        var rest = words.dropFirst()
        if event.declaration.requiresAction, let word = rest.first, let action = Action(rawValue: word) {
            self.action = action
            rest = rest.dropFirst()
        }
        while let word = rest.popFirst() {
            switch word {
            case "--url":
                guard let url = rest.popFirst() else { return nil }
                self.url = url
            case "--activity", "--push", "--payload":
                guard let text = rest.popFirst(), case .object(let object)? = try? JSONParser.parse(text) else {
                    return nil
                }
                switch word {
                case "--push": push = JSONValue.object(object).jsonText
                case "--payload": payload = JSONValue.object(object).jsonText
                default: activity = JSONValue.object(object).jsonText
                }
            case "--app" where event == .scene:
                continue
            case _ where event == .bgtask && app != nil && identifier == nil:
                identifier = word
            case _ where event == .scene && app != nil:
                guard let number = UInt32(word), number >= 1 else { return nil }
                if action == .reconnect { session = SceneSessionID(number) } else { scene = SceneID(number) }
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
