import Lifebus
import LifebusJSON

/// ReturnMeTo, the sample app of the source documents, on the bus: it shows whom to return a found phone to, and
/// counts how often a finder looked.
///
/// Owns its state (how many times the card was shown, and in how many launches; saved to a file when it enters
/// the background or terminates, restored at launch) and a `Purgeable` cache of the rendered card (dropped on
/// memory warnings, rendered again when next shown). Bound to the main actor. Each step is reported with `mark`.
/// Installed in a broker (`lifebus install`), it also hands the broker its count as restoration state, and reports
/// the launch options it gets back (`launch-options`).
@MainActor
final class ReturnMeToDelegate: ApplicationDelegate {
    static let appID = "com.example.ReturnMeTo"

    private let stateFile: StateFile
    private var launches = 0
    private var timesShown = 0
    private var card: Purgeable<String>?

    init(stateFile: StateFile) {
        self.stateFile = stateFile
    }

    /// Parses the command line (`--socket`, `--state-file`, app flags) and runs until the broker terminates the app.
    static func main() async -> Never {
        let arguments = LaunchArguments.commandLine(program: "ReturnMeTo")
        let path = StateFile.path(for: appID, explicit: arguments.stateFile)
        await ApplicationMain(id: appID, delegate: ReturnMeToDelegate(stateFile: StateFile(path: path)),
                              options: arguments.options)
    }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        let saved = try? stateFile.readValues()
        launches = (saved?["launches"].flatMap { Int($0) } ?? 0) + 1
        timesShown = saved?["shown"].flatMap { Int($0) } ?? 0
        card = Purgeable(in: application) { [launches] in ReturnMeToDelegate.renderCard(launch: launches) }
        if let launch = options.launch {
            // Installed and launched by the broker: what it handed back wins over the file (it outlives a jetsam).
            if let restored = options.restorationState.flatMap({ Int($0.dropFirst("shown=".count)) }) {
                timesShown = restored
            }
            await mark(application, "launch-options", [
                "reason": .string(launch.reason.rawValue),
                "previousPid": launch.previousPid.map { .integer(Int64($0)) } ?? .null,
                "restorationState": launch.restorationState.map(JSONValue.string) ?? .null,
            ])
        }
        await mark(application, "state-restored", [
            "launches": .integer(Int64(launches)), "shown": .integer(Int64(timesShown)),
            "found": .bool(saved != nil),
        ])
    }

    func didBecomeActive(_ application: Application) async {
        guard let card else { return }
        let wasLoaded = card.isLoaded
        let text = card.value
        timesShown += 1
        if !wasLoaded { await mark(application, "cache-built", ["bytes": .integer(Int64(text.utf8.count))]) }
        await mark(application, "card-shown", ["shown": .integer(Int64(timesShown))])
    }

    func willResignActive(_ application: Application) async {
        await mark(application, "paused", ["shown": .integer(Int64(timesShown))])
    }

    func didEnterBackground(_ application: Application) async {
        await save(application, reason: "didEnterBackground")
    }

    func willTerminate(_ application: Application) async {
        await save(application, reason: "willTerminate")
    }

    /// Handed to the broker after `didEnterBackground` and `willTerminate`: back at the next launch after a kill.
    func restorationState(_ application: Application) -> String? {
        "shown=\(timesShown)"
    }

    func didReceiveMemoryWarning(_ application: Application) async {
        // The card drops itself (it observes memory warnings); this reports what was held.
        await mark(application, "cache-dropped", ["wasLoaded": .bool(card?.isLoaded ?? false)])
    }

    private func save(_ application: Application, reason: String) async {
        let values = [("launches", String(launches)), ("shown", String(timesShown))]
        let saved = (try? stateFile.write(values: values)) != nil
        await mark(application, saved ? "state-saved" : "state-save-failed", [
            "launches": .integer(Int64(launches)), "shown": .integer(Int64(timesShown)),
            "reason": .string(reason), "path": .string(stateFile.path),
        ])
    }

    /// Reports a step; a broker that is away loses the mark, and the app carries on.
    private func mark(_ application: Application, _ name: String, _ data: JSONObject) async {
        try? await application.mark(name, data: data)
    }

    /// The card a finder sees (a stand-in for the original's image and text).
    private static func renderCard(launch: Int) -> String {
        let border = String(repeating: "*", count: 40)
        return [
            border,
            "*  If found, please return this phone   *",
            "*  to its owner: call 555-0100.          *",
            "*  (launch \(launch))",
            border,
        ].joined(separator: "\n")
    }
}
