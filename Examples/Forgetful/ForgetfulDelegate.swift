import Glibc
import Lifebus
import LifebusJSON
import LifebusProtocol

/// Forgetful, a deliberately broken app for the interruption fuzzer (`lifebus run --random`) to find: it keeps a
/// draft (a counter that grows each time it becomes active), saves it to a file with a `state-saved` mark when it
/// enters the background or terminates, and restores it at launch with a `state-restored` mark — except that when
/// the user leaves it by replying to an SMS (`didEnterBackground` or `willTerminate` caused by `sms --reply`), it
/// forgets to save. `ReturnMeTo` is the correct app to compare it with.
///
/// With `--saves-late` (`Examples/manifests/forgetful-late.json`) it is broken the other way, as
/// `com.example.ForgetfulLate`: it saves every time, but only after dawdling `lateness` (real time) in
/// `didEnterBackground` and `willTerminate`. On the scenario runner's manual clock an answer that has not come within
/// its hand-over (1 s) is left to the next `advance`, which steps on after its settle limit (1 s more): when that
/// advance passes the callback's budget, the watchdog kills the app before it has saved.
///
/// Owns its draft and its state file. Bound to the main actor; every step is reported with `mark`.
@MainActor
final class ForgetfulDelegate: ApplicationDelegate {
    static let appID = "com.example.Forgetful"
    static let lateAppID = "com.example.ForgetfulLate"
    /// How long `--saves-late` waits before saving: past the runner's 1 s hand-over to the next advance and that
    /// advance's 1 s settle limit, with a second to spare on a loaded machine.
    static let lateness = Duration.seconds(3)

    private let stateFile: StateFile
    private let savesLate: Bool
    private var draft = 0

    init(stateFile: StateFile, savesLate: Bool) {
        self.stateFile = stateFile
        self.savesLate = savesLate
    }

    /// Parses the command line (`--socket`, `--state-file`, app flags, `--saves-late`) and runs until the broker
    /// terminates the app.
    static func main() async -> Never {
        let arguments = LaunchArguments.commandLine(program: "Forgetful", allowingUnknown: true)
        guard arguments.remaining.allSatisfy({ $0 == "--saves-late" }) else {
            let line = "Forgetful: unknown argument \(arguments.remaining[0]) (it knows --saves-late)\n"
            _ = line.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
            exit(2)
        }
        let savesLate = !arguments.remaining.isEmpty
        let id = savesLate ? lateAppID : appID
        let path = StateFile.path(for: id, explicit: arguments.stateFile)
        let delegate = ForgetfulDelegate(stateFile: StateFile(path: path), savesLate: savesLate)
        await ApplicationMain(id: id, delegate: delegate, options: arguments.options)
    }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        draft = (try? stateFile.readValues())?["draft"].flatMap { Int($0) } ?? 0
        await mark(application, "state-restored", ["draft": .integer(Int64(draft))])
    }

    func didBecomeActive(_ application: Application) async {
        draft += 1
        await mark(application, "draft-edited", ["draft": .integer(Int64(draft))])
    }

    func didEnterBackground(_ application: Application) async {
        await save(application)
    }

    func willTerminate(_ application: Application) async {
        await save(application)
    }

    /// The bugs: leaving for Messages skips the save; `--saves-late` saves only after `lateness`.
    private func save(_ application: Application) async {
        if savesLate {
            try? await Task.sleep(for: Self.lateness)
        } else if application.currentCallback?.cause?.event == "sms --reply" {
            return
        }
        let saved = (try? stateFile.write(values: [("draft", String(draft))])) != nil
        await mark(application, saved ? "state-saved" : "state-save-failed", ["draft": .integer(Int64(draft))])
    }

    /// Reports a step; a broker that is away loses the mark, and the app carries on.
    private func mark(_ application: Application, _ name: String, _ data: JSONObject) async {
        try? await application.mark(name, data: data)
    }
}
