// What a test names besides the bus, so `import LifebusTesting` is all a test file needs (`ExportsTests` imports
// nothing else): the device's vocabulary (events and their actions and levels, callbacks, states, profiles, kill
// and refusal reasons, transition outcomes), the scene values, the background life's values (task kinds and
// outcomes, fetch results, pushes, launch reasons), the device knobs, `JSONValue` and `JSONObject` (marks' data,
// payloads), and the SDK's delegates and the types their methods receive (a `BGTask` and its scheduler, protected
// files).
@_exported public import protocol Lifebus.ApplicationDelegate
@_exported public import class Lifebus.Application
@_exported public import struct Lifebus.ApplicationOptions
@_exported public import struct Lifebus.LaunchOptions
@_exported public import protocol Lifebus.SceneDelegate
@_exported public import struct Lifebus.Scene
@_exported public import enum Lifebus.ScenePhase
@_exported public import struct Lifebus.SceneSession
@_exported public import class Lifebus.BackgroundTask
@_exported public import class Lifebus.BackgroundTaskScheduler
@_exported public import struct Lifebus.ProtectedFile
@_exported public import struct Lifebus.ProtectedFileError
@_exported public import struct LifebusJSON.JSONObject
@_exported public import enum LifebusJSON.JSONValue
@_exported public import enum LifebusLifecycle.AlertAction
@_exported public import enum LifebusLifecycle.BackgroundFetchResult
@_exported public import enum LifebusLifecycle.BackgroundTaskAction
@_exported public import enum LifebusLifecycle.BackgroundTaskKind
@_exported public import enum LifebusLifecycle.LaunchReason
@_exported public import struct LifebusLifecycle.PushNotification
@_exported public import struct LifebusLifecycle.NotificationPresentationOptions
@_exported public import enum LifebusLifecycle.PowerSource
@_exported public import enum LifebusLifecycle.NetworkState
@_exported public import struct LifebusLifecycle.DeviceKnobs
@_exported public import struct LifebusLifecycle.AppID
@_exported public import enum LifebusLifecycle.CallAction
@_exported public import enum LifebusLifecycle.ControllerEvent
@_exported public import enum LifebusLifecycle.KillReason
@_exported public import enum LifebusLifecycle.LifecycleCallback
@_exported public import enum LifebusLifecycle.LifecycleState
@_exported public import enum LifebusLifecycle.MemoryPressure
@_exported public import struct LifebusLifecycle.MemoryWarningLevel
@_exported public import enum LifebusLifecycle.Profile
@_exported public import enum LifebusLifecycle.RejectionReason
@_exported public import struct LifebusLifecycle.SceneConnectionOptions
@_exported public import enum LifebusLifecycle.SceneEvent
@_exported public import struct LifebusLifecycle.SceneID
@_exported public import struct LifebusLifecycle.SceneSessionID
@_exported public import enum LifebusLifecycle.SceneState
@_exported public import enum LifebusLifecycle.TransitionOutcome
@_exported public import enum LifebusProtocol.BackgroundTaskOutcome
