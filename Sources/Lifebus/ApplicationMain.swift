import Glibc

/// Runs an app on the bus until the broker terminates it, then exits the process with status 0: the counterpart of
/// `UIApplicationMain`. Call it from `main.swift` (`await ApplicationMain(id: ..., delegate: MyDelegate())`).
///
/// It creates the `Application`, connects to the broker (the socket from `options`, else `$LIFEBUS_SOCKET`,
/// `$XDG_RUNTIME_DIR/lifebus.sock`, `/tmp/lifebus-$UID/lifebus.sock`), says hello with the app's flags and runs each
/// callback's delegate method on the main actor, answering when it returns. If the broker goes away the app keeps
/// running and reconnects with backoff.
@MainActor
public func ApplicationMain(
    id: String,
    delegate: some ApplicationDelegate,
    options: ApplicationOptions = ApplicationOptions()
) async -> Never {
    let application = Application(id: id, options: options)
    await application.run(delegate: delegate)
    exit(0)
}
