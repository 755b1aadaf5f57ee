import Glibc
import LifebusIO

/// Runs an app on the bus until the broker terminates it, then exits the process with status 0 (status 3, with the
/// reason on stderr, when `options.connectTimeout` ran out before the first connection): the counterpart of
/// `UIApplicationMain`. Call it from `main.swift` (`await ApplicationMain(id: ..., delegate: MyDelegate())`).
///
/// It creates the `Application`, connects to the broker (the socket from `options`, else `$LIFEBUS_SOCKET`,
/// `$XDG_RUNTIME_DIR/lifebus.sock`, `/tmp/lifebus-$UID/lifebus.sock`), says hello with the app's flags and runs each
/// callback's delegate method on the main actor, answering when it returns. If the broker goes away the app keeps
/// running and reconnects with backoff.
///
/// With a `sceneDelegate` the app adopts the scene-based life cycle (`SceneDelegate`); under a profile without
/// scenes (ios3, ios4, ios7) the broker refuses that, and the app runs the app-delegate life cycle instead, its
/// `delegate` getting every callback, as iOS 12 runs an app with a scene manifest (`Application.fellBackFromScenes`).
///
/// - Parameters:
///   - id: The app id it says hello with, e.g. `com.example.DeepThoughts`.
///   - delegate: Answers the app's callbacks.
///   - sceneDelegate: Answers the scene callbacks of an app that adopts scenes; `nil` (the default) for an app without
///     scenes.
///   - options: How it connects and what it declares in hello; the defaults by default.
/// - Returns: Never: it exits the process.
@MainActor
public func ApplicationMain(
    id: String,
    delegate: some ApplicationDelegate,
    sceneDelegate: (any SceneDelegate)? = nil,
    options: ApplicationOptions = ApplicationOptions()
) async -> Never {
    let application = Application(id: id, options: options)
    await application.run(delegate: delegate, sceneDelegate: sceneDelegate)
    if let failure = application.connectFailure {
        StandardError.writeLine("\(id): gave up connecting: \(failure)")
        exit(3)
    }
    exit(0)
}
