import Lifebus
import LifebusJSON
import LifebusLifecycle

/// HalfMigrated: deliberately broken, the half-done migration `SCENES.md` §8 reports most (bug classes 1 and 6). It
/// adopted scenes (a scene delegate, so under `ios27` it launches) but kept its app-delegate code: it saves in
/// `applicationDidEnterBackground` (mark `state-saved`), which UIKit never calls in a scene app, and looks for its
/// deep link in the launch options only (mark `deep-link`), which under scenes are nil — the URL is in
/// `willConnectTo`'s connection options, which it ignores (bug class 5). What the migration diff, the fuzzer and a
/// kit test must catch: after home, its `state-saved` mark is missing; after a launch by a URL, its `deep-link`.
///
/// One object is both delegates. Owns the note it shows. Bound to the main actor.
@MainActor
final class HalfMigratedDelegate: ApplicationDelegate, SceneDelegate {
    static let appID = "com.example.HalfMigrated"

    private let note = 1

    /// Parses the command line (`--socket`, app flags) and runs until the broker terminates the app.
    static func main() async -> Never {
        var options = LaunchArguments.commandLine(program: "HalfMigrated").options
        options.implementedCallbacks = [.didFinishLaunching, .didEnterBackground, .willConnectTo]
        let delegate = HalfMigratedDelegate()
        await ApplicationMain(id: appID, delegate: delegate, sceneDelegate: delegate, options: options)
    }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        // The app-delegate era's `launchOptions[.url]`: a scene app's launch options are nil.
        if let url = options.url {
            try? await application.mark("deep-link", data: ["url": .string(url)])
        }
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {}

    /// Never called under scenes: the bug.
    func didEnterBackground(_ application: Application) async {
        try? await application.mark("state-saved", data: ["note": .integer(Int64(note))])
    }
}
