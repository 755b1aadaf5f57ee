public import LifebusLifecycle
public import LifebusProtocol

extension EventCause {
    /// The device event this cause names, read back from its label (`FireParams(label:)`, e.g. `call --answer`,
    /// `terminate --app X --by-user`, `memory-warning --level critical`); `nil` for a label that is not a valid
    /// `fire` (an unknown word, a missing app), which a journal from a newer broker might hold.
    public var controllerEvent: ControllerEvent? {
        FireParams(label: event)?.controllerEvent
    }
}
