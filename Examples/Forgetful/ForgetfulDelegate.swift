import Lifebus
import LifebusProtocol

/// Forgetful, a deliberately broken app for the interruption fuzzer (`lifebus run --random`) to find: it keeps a
/// draft (a counter that grows each time it becomes active), saves it to a file with a `state-saved` mark when it
/// enters the background or terminates, and restores it at launch with a `state-restored` mark — except that when
/// the user leaves it by replying to an SMS (`didEnterBackground` or `willTerminate` caused by `sms --reply`), it
/// forgets to save. `ReturnMeTo` is the correct app to compare it with.
///
/// Owns its draft and its state file. Bound to the main actor; every step is reported with `mark`.
@MainActor
final class ForgetfulDelegate: ApplicationDelegate {
    static let appID = "com.example.Forgetful"

    private let stateFile: StateFile
    private var draft = 0

    init(stateFile: StateFile) {
        self.stateFile = stateFile
    }

    /// Parses the command line (`--socket`, `--state-file`, app flags) and runs until the broker terminates the app.
    static func main() async -> Never {
        let arguments = LaunchArguments.commandLine(program: "Forgetful")
        let path = StateFile.path(for: appID, explicit: arguments.stateFile)
        await ApplicationMain(id: appID, delegate: ForgetfulDelegate(stateFile: StateFile(path: path)),
                              options: arguments.options)
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

    /// The bug: leaving for Messages skips the save.
    private func save(_ application: Application) async {
        guard application.currentCallback?.cause?.event != "sms --reply" else { return }
        let saved = (try? stateFile.write(values: [("draft", String(draft))])) != nil
        await mark(application, saved ? "state-saved" : "state-save-failed", ["draft": .integer(Int64(draft))])
    }

    /// Reports a step; a broker that is away loses the mark, and the app carries on.
    private func mark(_ application: Application, _ name: String, _ data: JSONObject) async {
        try? await application.mark(name, data: data)
    }
}
