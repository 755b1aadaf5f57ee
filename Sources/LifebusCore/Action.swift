public import LifebusLifecycle

/// What the device asks its caller to do, in order. The caller performs every action it receives.
public enum Action: Sendable, Equatable {
    /// Call the app's delegate method; the app must answer within `budget`. `to` is the state the callback moves
    /// the app to (the device's state for the app from now on: the callback tells the app where it is going).
    /// `scene` is a scene callback's context (its scene, state, notification, options, payload) or the sessions
    /// `didDiscardSceneSessions` names; `nil` for every other app-delegate callback.
    case sendCallback(
        AppID, CallbackID, LifecycleCallback, to: LifecycleState, budget: Duration, cause: EventID?,
        scene: SceneCallbackContext?)
    /// The app's state changed at `at` (the input's instant). Emitted for every change, in the order the changes
    /// happen, so the last one for an app is the device's `state(of:)`.
    case stateChanged(AppID, from: LifecycleState, to: LifecycleState, at: Instant)
    /// One of the app's scenes changed state at `at`: emitted for every change (a scene connecting leaves
    /// `unattached`, one disconnecting returns to it), in order, beside the app's own `stateChanged`.
    case sceneChanged(AppID, SceneRef, from: SceneState, to: SceneState, at: Instant)
    /// Start the app's process: the device waits for it to connect within the launch budget.
    /// A caller that cannot spawn processes leaves it to the user to start the app.
    case startProcess(AppID)
    /// Kill the app's process (SIGKILL). The device already treats the app as `notRunning`.
    case kill(AppID, reason: KillReason)
    /// Tell the app its background task is about to expire (its expiration handler runs).
    case backgroundTaskExpiring(AppID, taskID: UInt64)
    /// Journal one step of a `BGTask` (submitted, launched, expiring, completed, expired, cancelled, deferred).
    /// Boxed (`indirect`), as `pushRecord`: the app-delegate lifecycle's actions stay as small as before.
    indirect case taskRecord(TaskRecord)
    /// Journal one step of a push's delivery (delivered, deferred, answered, late, discarded).
    indirect case pushRecord(PushRecord)
    /// Protected data became available (`wake`) or unavailable (`Profile.protectedDataLockDelay` after `sleep`).
    case protectedData(available: Bool)
    /// Journal one completed transition.
    case record(Transition)
    /// Answer the controller: the event and the whole chain of callbacks it caused have completed. Its
    /// transitions are the `record` actions before it whose `cause` is this event.
    case completeEvent(EventID)
    /// The input was refused; when it was a controller event, this is the event's answer.
    case reject(Rejection)
}
