import LifebusLifecycle
import LifebusProtocol

/// The wire's `fire` params for a device event: the inverse of `FireParams.controllerEvent`, so a test names an
/// event in the device's terms (`.call(.answer)`, `.scene(.reclaim("A", SceneID(1)))`) and either transport receives
/// the broker's own request.
extension ControllerEvent {
    /// The params of the `fire` request for this event (answered once the device has settled), its action, level,
    /// scene, session, connection options, task identifier and push payload explicit; `nil` for `.reset`, which is a
    /// request of its own.
    var fireParams: FireParams? {
        fired.map {
            var params = FireParams(
                event: $0.event, action: $0.action, app: $0.app?.rawValue, level: $0.level, byUser: $0.byUser)
            params.scene = $0.scene
            params.session = $0.session
            params.identifier = $0.identifier
            if $0.event == .push { params.payload = $0.payload }
            if let options = $0.options {
                params.url = options.urlContexts.first
                params.activity = options.userActivity
                params.push = options.notificationResponse
            }
            return params
        }
    }
}
