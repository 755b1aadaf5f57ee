import LifebusLifecycle

/// A visible notification arriving while its app is in the foreground (`Protocol/lifecycle.md` B60–B63): from iOS 10
/// (`Profile.asksDelegateToPresent`) the app's `UNUserNotificationCenter` delegate is asked how to present it
/// (`willPresentNotification`, either kind of app: B61) — "If your app is in the foreground when a notification
/// arrives, the shared user notification center calls this method to deliver the notification directly to your
/// app" — and its answer's options are journaled (`push presented banner,sound`, or `none`: "If your delegate
/// doesn't implement this method, the system behaves as if you had passed the UNNotificationPresentationOptionNone
/// option"). `inactive` is in the foreground too ("running in the foreground but isn't receiving events",
/// `UIApplication.State.inactive`). An app in the background, suspended or not running is not asked (B62, B33).
/// The offer rides the app's `deliverPushes` work, before its silent pushes.
extension Device {
    /// A visible notification for app `i` was journaled `delivered`: offered to its delegate when it is in the
    /// foreground under a profile that asks (B60, B61; B63: not before iOS 10).
    mutating func offerPresentation(_ i: Int, _ payload: String) {
        guard configuration.profile.asksDelegateToPresent, apps[i].state.isForeground else {
            return
        }
        apps[i].pushes.presenting.append(payload)
        schedule(i, .deliverPushes, stage: 0)
    }

    /// Sends `willPresentNotification` for app `i`'s next offered notification; `false` when there is none to send.
    /// An app that left the foreground before its turn is not asked: its offers are dropped, the notifications
    /// shown as to an app in the background ([inference]: the system asks only an app in the foreground).
    mutating func offerNextPresentation(_ i: Int) -> Bool {
        guard let payload = apps[i].pushes.presenting.first else {
            return false
        }
        guard apps[i].state.isForeground, apps[i].process == .connected else {
            apps[i].pushes.presenting.removeAll()
            return false
        }
        apps[i].pushes.presenting.removeFirst()
        apps[i].pushes.presentingNow = payload
        send(
            i, .willPresentNotification, to: apps[i].state, context: SceneCallbackContext(payload: payload),
            ownBudget: true)
        return true
    }

    /// The app called `willPresentNotification`'s completion handler (the callback's answer): `presented` with the
    /// options it chose, none when the answer names none (the SDK's default method, an app that does not implement
    /// it).
    mutating func presentationAnswered(_ i: Int) {
        guard let payload = apps[i].pushes.presentingNow.take() else {
            return
        }
        let options = apps[i].pushes.presentation.take() ?? []
        recordPush(i, .presented, presentation: options, payload: payload)
    }

    /// App `i`'s process ended: the notifications offered and not answered are not presented by it
    /// (`Device.pushesEnded`).
    mutating func presentationsEnded(_ i: Int) {
        apps[i].pushes.presenting.removeAll()
        apps[i].pushes.presentingNow = nil
        apps[i].pushes.presentation = nil
    }
}
