// What a test names besides the bus: the device's vocabulary (events, callbacks, states, profiles) and the scene
// values, so `import LifebusTesting` (with `import Lifebus` for the delegates) is all a test file needs.
@_exported public import struct LifebusLifecycle.AppID
@_exported public import enum LifebusLifecycle.ControllerEvent
@_exported public import enum LifebusLifecycle.LifecycleCallback
@_exported public import enum LifebusLifecycle.LifecycleState
@_exported public import enum LifebusLifecycle.Profile
@_exported public import struct LifebusLifecycle.SceneConnectionOptions
@_exported public import enum LifebusLifecycle.SceneEvent
@_exported public import struct LifebusLifecycle.SceneID
@_exported public import struct LifebusLifecycle.SceneSessionID
@_exported public import enum LifebusLifecycle.SceneState
