import LifebusLifecycle

/// The moves of a work, as tables: what an app does next for its intent, given where it is (`move(for:_:)`), and
/// the next callback on the way from one state to another (`nextStep`). Pure: `step` performs what they say.
extension Device {
    /// What the device knows of an app when it chooses the app's next move.
    struct Situation: Equatable {
        var state: LifecycleState
        /// A process is connected (not exiting, not killed, not gone).
        var connected: Bool
        /// The profile and the app's flags let it run in the background.
        var canBackground: Bool
        /// The app owns the screen.
        var isFront: Bool
    }

    /// One move of an app's work.
    enum Move: Equatable {
        /// Send `callback`; the app's state becomes `to`.
        case send(LifecycleCallback, to: LifecycleState)
        /// Go on as `then`, sending `callback` (the `didEnterBackground` that ends a background launch).
        case sendAs(Intent, LifecycleCallback, to: LifecycleState)
        /// Ask for the app's process and wait for it, counting the launch budget.
        case awaitLaunch
        /// Kill the suspended app without a callback (reason `system`, outcome `killed`).
        case killSuspended
        /// A background launch the app may not do: it launches as the front app instead.
        case launchInFront
        /// The work is done.
        case finish
    }

    /// The next move of a work `intent` for an app in `situation`.
    static func move(for intent: Intent, _ situation: Situation) -> Move {
        let state = situation.state
        switch intent {
        case .memoryWarning:
            return state.isForeground || state == .background ? .send(.didReceiveMemoryWarning, to: state) : .finish
        case .terminate:
            switch state {
            case .notRunning: return .finish
            case .suspended: return .killSuspended
            case .active, .inactive, .background: return .send(.willTerminate, to: .notRunning)
            }
        case .launchInBackground:
            switch (situation.canBackground, state) {
            case (false, _): return situation.isFront ? .launchInFront : .finish
            case (true, .notRunning) where situation.connected: return .send(.didFinishLaunching, to: .background)
            case (true, .notRunning): return situation.isFront ? .awaitLaunch : .finish
            case (true, .background): return .sendAs(.enterBackground, .didEnterBackground, to: .background)
            case (true, .inactive), (true, .active), (true, .suspended): return .finish
            }
        case .enterBackground:
            return .finish
        case .moveTo(let target):
            if target.isForeground && !situation.isFront {
                return .finish  // the app ended while waiting for its stage and is no longer F: done without it
            }
            if state == .notRunning && !situation.connected {
                return target.isForeground ? .awaitLaunch : .finish
            }
            guard let (callback, next) = nextStep(from: state, to: target, canBackground: situation.canBackground)
            else {
                return .finish
            }
            return .send(callback, to: next)
        }
    }

    /// The next callback on the way from `state` to `target`, and the state it moves the app to.
    static func nextStep(
        from state: LifecycleState, to target: LifecycleState, canBackground: Bool
    ) -> (LifecycleCallback, LifecycleState)? {
        switch (target, state) {
        case (.active, .notRunning), (.inactive, .notRunning):
            (.didFinishLaunching, .inactive)
        case (.active, .inactive):
            (.didBecomeActive, .active)
        case (.active, .background), (.active, .suspended), (.inactive, .background), (.inactive, .suspended):
            (.willEnterForeground, .inactive)
        case (.inactive, .active), (.background, .active), (.suspended, .active):
            (.willResignActive, .inactive)
        case (.background, .inactive), (.suspended, .inactive):
            canBackground ? (.didEnterBackground, .background) : (.willTerminate, .notRunning)
        case (.active, .active), (.inactive, .inactive), (.background, .background), (.background, .suspended),
            (.suspended, .background), (.suspended, .suspended), (.background, .notRunning), (.suspended, .notRunning),
            (.notRunning, _):
            nil
        }
    }
}
