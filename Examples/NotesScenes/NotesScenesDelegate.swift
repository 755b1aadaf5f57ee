import Lifebus
import LifebusJSON
import LifebusLifecycle

/// NotesScenes: a notes app that adopted the scene-based life cycle correctly (`SCENES.md` §8's migration done
/// right). Two windows (`supportsMultipleScenes`), each showing one note: each scene saves its note when it enters
/// the background (`sceneDidEnterBackground`, mark `state-saved`) and hands it to the system as its restoration payload
/// (`stateRestorationActivity`); a scene reconnected to its session restores the note from that payload (mark
/// `state-restored`); a cold start's URL is consumed from `willConnectTo`'s connection options (mark `url-consumed`).
///
/// One object is both delegates, so the scene callbacks can mark through the application it was launched with.
/// Owns the notes shown, by scene. Bound to the main actor.
@MainActor
final class NotesScenesDelegate: ApplicationDelegate, SceneDelegate {
    static let appID = "com.example.NotesScenes"

    private var application: Application?
    /// The note each connected scene shows.
    private var notes: [SceneID: Int] = [:]
    private var nextNote = 1

    /// Parses the command line (`--socket`, app flags) and runs until the broker terminates the app.
    static func main() async -> Never {
        var options = LaunchArguments.commandLine(program: "NotesScenes").options
        options.supportsMultipleScenes = true
        options.implementedCallbacks = [
            .didFinishLaunching, .willConnectTo, .sceneDidEnterBackground, .stateRestorationActivity,
            .restoreInteractionState, .sceneDidDisconnect,
        ]
        let delegate = NotesScenesDelegate()
        await ApplicationMain(id: appID, delegate: delegate, sceneDelegate: delegate, options: options)
    }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        self.application = application
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {
        if let url = options.urlContexts.first {
            await mark("url-consumed", scene, ["url": .string(url)])
        }
        if let payload = session.stateRestorationActivity, let note = Self.note(in: payload) {
            notes[scene.id] = note
            await mark("state-restored", scene, ["note": .integer(Int64(note))])
        } else {
            notes[scene.id] = nextNote
            nextNote += 1
        }
    }

    func sceneDidEnterBackground(_ scene: Scene) async {
        await mark("state-saved", scene, ["note": .integer(Int64(notes[scene.id] ?? 0))])
    }

    func stateRestorationActivity(for scene: Scene) async -> String? {
        notes[scene.id].map { "{\"note\":\($0)}" }
    }

    func sceneDidDisconnect(_ scene: Scene) async {
        notes[scene.id] = nil
    }

    /// The note number of a payload this app wrote (`{"note":N}`).
    private static func note(in payload: String) -> Int? {
        (try? JSONParser.parse(payload))?["note"]?.int64Value.map { Int($0) }
    }

    /// Reports a step of `scene`; a broker that is away loses the mark, and the app carries on.
    private func mark(_ name: String, _ scene: Scene, _ data: JSONObject) async {
        var data = data
        data["scene"] = .integer(Int64(scene.id.number))
        data["session"] = .integer(Int64(scene.session.persistentIdentifier.number))
        try? await application?.mark(name, data: data)
    }
}
