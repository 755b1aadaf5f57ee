import Lifebus

/// A notes app for the kit's tests: it saves its state (the mark `state-saved`) when it enters the background, and
/// counts memory warnings.
@MainActor
final class NotesDelegate: ApplicationDelegate {
    private(set) var memoryWarnings = 0

    func didEnterBackground(_ application: Application) async {
        try? await application.mark("state-saved")
    }

    func didReceiveMemoryWarning(_ application: Application) async {
        memoryWarnings += 1
    }
}

/// An uploader that asks for background time in `didEnterBackground` and never ends its task: the watchdog's case.
@MainActor
final class UploaderDelegate: ApplicationDelegate {
    private(set) var expirations = 0

    func didEnterBackground(_ application: Application) async {
        _ = try? await application.beginBackgroundTask(name: "upload") { [self] in expirations += 1 }
    }
}
