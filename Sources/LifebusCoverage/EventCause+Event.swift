public import LifebusLifecycle
public import LifebusProtocol

extension EventCause {
    /// The device event this cause names, read back from its label (`FireParams.label`, e.g. `call --answer`,
    /// `terminate --app X --by-user`, `memory-warning --level critical`); `nil` for a label that is not a valid
    /// `fire` (an unknown word, a missing app), which a journal from a newer broker might hold.
    public var controllerEvent: ControllerEvent? {
        let words = event.split(separator: " ").map(String.init)
        guard let first = words.first, let kind = FireParams.FireEvent(rawValue: first) else { return nil }
        var params = FireParams(event: kind)
        var index = 1
        while index < words.count {
            let word = words[index]
            index += 1
            switch word {
            case "--app", "--level":
                guard index < words.count else { return nil }
                if word == "--app" {
                    params.app = words[index]
                } else {
                    guard let level = MemoryLevel(rawValue: words[index]) else { return nil }
                    params.level = level
                }
                index += 1
            case "--by-user":
                params.byUser = true
            case _ where word.hasPrefix("--"):
                guard let action = FireParams.Action(rawValue: String(word.dropFirst(2))) else { return nil }
                params.action = action
            default:
                params.app = word
            }
        }
        do {
            try params.validate()
        } catch {
            return nil
        }
        return params.controllerEvent
    }
}
