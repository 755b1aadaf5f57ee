public import LifebusLifecycle

/// The device's event for `fire` params: `ControllerEvent.init(validated:action:app:level:byUser:)` on their members,
/// which maps them as `init(_:action:app:level:byUser:)` does without checking the declaration again (`validate()`
/// did).
extension FireParams {
    /// The event these params ask for. The params must be valid (`validate()`, which `init(json:)` and
    /// `readCanonical` run): params that break the type's invariants are a bug of the code that made them, and trap.
    public var controllerEvent: ControllerEvent {
        // An `AppID` hashes its name when it is made: only events that name an app make one.
        guard let named else {
            return ControllerEvent(validated: event, action: action, app: nil, level: level, byUser: byUser)
        }
        return ControllerEvent(
            validated: event, action: action, app: named.app.map { AppID($0) }, level: level, byUser: byUser,
            scene: named.scene, session: named.session, options: connectionOptions, identifier: named.identifier,
            payload: named.payload)
    }
}
