import Lifebus
import LifebusJSON

/// DeepThoughts, the sample app of the source documents, on the bus: it shows one deep thought after another.
///
/// Owns the index of the thought on screen (its state, saved to a file when it enters the background or
/// terminates and restored at launch) and a `Purgeable` cache of the thoughts (dropped on memory warnings, rebuilt
/// when next shown). Bound to the main actor. Each step is reported with `mark`, so tests and the journal see it.
@MainActor
final class DeepThoughtsDelegate: ApplicationDelegate {
    static let appID = "com.example.DeepThoughts"

    private let stateFile: StateFile
    private var thoughtIndex = 0
    private var thoughts: Purgeable<[String]>?

    init(stateFile: StateFile) {
        self.stateFile = stateFile
    }

    /// Parses the command line (`--socket`, `--state-file`, app flags) and runs until the broker terminates the app.
    static func main() async -> Never {
        let arguments = LaunchArguments.commandLine(program: "DeepThoughts")
        let path = StateFile.path(for: appID, explicit: arguments.stateFile)
        await ApplicationMain(id: appID, delegate: DeepThoughtsDelegate(stateFile: StateFile(path: path)),
                              options: arguments.options)
    }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        thoughts = Purgeable(in: application) { DeepThoughtsDelegate.loadThoughts() }
        let restored = (try? stateFile.readValues())?["thought"].flatMap { Int($0) }
        thoughtIndex = restored ?? 0
        await mark(application, "state-restored", [
            "thought": .integer(Int64(thoughtIndex)), "found": .bool(restored != nil),
            "background": .bool(options.isBackgroundLaunch),
        ])
    }

    func didBecomeActive(_ application: Application) async {
        guard let thoughts else { return }
        let wasLoaded = thoughts.isLoaded
        let all = thoughts.value
        thoughtIndex = (thoughtIndex + 1) % all.count
        if !wasLoaded { await mark(application, "cache-built", ["count": .integer(Int64(all.count))]) }
        await mark(application, "thought-shown", [
            "thought": .integer(Int64(thoughtIndex)), "text": .string(all[thoughtIndex]),
        ])
    }

    func didEnterBackground(_ application: Application) async {
        await save(application, reason: "didEnterBackground")
    }

    func willTerminate(_ application: Application) async {
        await save(application, reason: "willTerminate")
    }

    func didReceiveMemoryWarning(_ application: Application) async {
        // The cache drops itself (it observes memory warnings); this reports what was held.
        await mark(application, "cache-dropped", ["wasLoaded": .bool(thoughts?.isLoaded ?? false)])
    }

    private func save(_ application: Application, reason: String) async {
        let saved = (try? stateFile.write(values: [("thought", String(thoughtIndex))])) != nil
        await mark(application, saved ? "state-saved" : "state-save-failed", [
            "thought": .integer(Int64(thoughtIndex)), "reason": .string(reason), "path": .string(stateFile.path),
        ])
    }

    /// Reports a step; a broker that is away loses the mark, and the app carries on.
    private func mark(_ application: Application, _ name: String, _ data: JSONObject) async {
        try? await application.mark(name, data: data)
    }

    /// Deep thoughts by Jack Handey, as in the original sample.
    private static func loadThoughts() -> [String] {
        [
            "If you ever drop your keys into a river of molten lava, let 'em go, because, man, they're gone.",
            "I hope that after I die, people will say of me: 'That guy sure owed me a lot of money.'",
            "It takes a big man to cry, but it takes a bigger man to laugh at that man.",
            "The face of a child can say it all, especially the mouth part of the face.",
            "If trees could scream, would we be so cavalier about cutting them down? We might, if they screamed "
                + "all the time, for no good reason.",
        ]
    }
}
