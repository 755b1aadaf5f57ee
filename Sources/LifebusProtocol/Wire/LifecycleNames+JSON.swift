import LifebusLifecycle

/// The JSON text of the lifecycle names the broker writes in every record and callback request, quoted, as
/// constants: the writers copy them in one go instead of reading each `rawValue` string. `RecordWritingTests`
/// checks each against `"\(rawValue)"`.
extension LifecycleState {
    /// `"rawValue"`.
    var quotedJSON: StaticString {
        switch self {
        case .notRunning: "\"notRunning\""
        case .inactive: "\"inactive\""
        case .active: "\"active\""
        case .background: "\"background\""
        case .suspended: "\"suspended\""
        }
    }
}

extension LifecycleCallback {
    /// `"rawValue"`. Always inlined: with the scene callbacks the switch is large enough that the compiler would
    /// otherwise call it, 40 instructions per journaled transition.
    @inline(__always)
    var quotedJSON: StaticString {
        switch self {
        case .didFinishLaunching: "\"didFinishLaunching\""
        case .didBecomeActive: "\"didBecomeActive\""
        case .willResignActive: "\"willResignActive\""
        case .didEnterBackground: "\"didEnterBackground\""
        case .willEnterForeground: "\"willEnterForeground\""
        case .willTerminate: "\"willTerminate\""
        case .didReceiveMemoryWarning: "\"didReceiveMemoryWarning\""
        case .configurationForConnecting: "\"configurationForConnecting\""
        case .didDiscardSceneSessions: "\"didDiscardSceneSessions\""
        case .willConnectTo: "\"willConnectTo\""
        case .restoreInteractionState: "\"restoreInteractionState\""
        case .sceneWillEnterForeground: "\"sceneWillEnterForeground\""
        case .sceneDidBecomeActive: "\"sceneDidBecomeActive\""
        case .sceneWillResignActive: "\"sceneWillResignActive\""
        case .sceneDidEnterBackground: "\"sceneDidEnterBackground\""
        case .stateRestorationActivity: "\"stateRestorationActivity\""
        case .sceneDidDisconnect: "\"sceneDidDisconnect\""
        case .openURLContexts: "\"openURLContexts\""
        case .protectedDataWillBecomeUnavailable: "\"protectedDataWillBecomeUnavailable\""
        case .protectedDataDidBecomeAvailable: "\"protectedDataDidBecomeAvailable\""
        case .didReceiveRemoteNotification: "\"didReceiveRemoteNotification\""
        case .performBackgroundTask: "\"performBackgroundTask\""
        case .backgroundTaskWillExpire: "\"backgroundTaskWillExpire\""
        case .openURL: "\"openURL\""
        case .didReceiveNotificationResponse: "\"didReceiveNotificationResponse\""
        case .willPresentNotification: "\"willPresentNotification\""
        }
    }
}

extension TransitionOutcome {
    /// `"rawValue"`.
    var quotedJSON: StaticString {
        switch self {
        case .ok: "\"ok\""
        case .late: "\"late\""
        case .watchdog: "\"watchdog\""
        case .crashed: "\"crashed\""
        case .disconnected: "\"disconnected\""
        case .killed: "\"killed\""
        case .jetsam: "\"jetsam\""
        }
    }
}

extension SceneState {
    /// `"rawValue"`.
    var quotedJSON: StaticString {
        switch self {
        case .unattached: "\"unattached\""
        case .foregroundInactive: "\"foregroundInactive\""
        case .foregroundActive: "\"foregroundActive\""
        case .background: "\"background\""
        }
    }
}
