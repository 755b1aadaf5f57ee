import ArgumentParser
import Glibc
import LifebusContainment
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus install MANIFEST`: the broker installs an app; `fire launch ID` then starts it.
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Install an app from its manifest: the broker starts it from then on (fire launch ID).",
            discussion: """
                MANIFEST is a JSON file (Protocol/schemas/manifest.schema.json); relative paths in it are taken \
                from its folder, an executable without a slash is looked up on this command's PATH. ${VAR} and \
                ${VAR:-default} in executable, arguments, environment values, workingDirectory and hooks take this \
                command's values: it sends the broker those of the variables the manifest names (and PATH for an \
                executable without a slash), never its whole environment. With "hooks" the program runs under \
                lifebus subscribe, its callbacks answered by the hooks' commands. A bad manifest is refused naming \
                the file, the member and the variable (exit status 4).
                """
        )

        @Argument(help: "The manifest file.") var manifest: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let path = manifest.hasPrefix("/") ? manifest : AppsCall.workingDirectory() + "/" + manifest
            let text = try? SystemFiles.read(path, limit: 1 << 20)
            let params = InstallParams.file(path, text: text, environment: ProcessEnvironment.current)
            try AppsCall.run(global, LifebusMethod.install, params: params) { app in
                "installed \(app["id"]?.stringValue ?? "?") (\(app["executable"]?.stringValue ?? "?"))"
            }
        }
    }

    /// `lifebus uninstall ID`.
    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall", abstract: "Forget an installed app (a running process keeps running).")

        @Argument(help: "The app id.") var id: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try AppsCall.run(global, LifebusMethod.uninstall, params: ["id": .string(id)]) { _ in "uninstalled \(id)" }
        }
    }

    /// `lifebus apps [--json]`: the installed apps with their state and pid.
    struct Apps: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apps", abstract: "List the installed apps with their state and process.")

        @OptionGroup var global: GlobalOptions

        /// One app's line: id, state, `pid N` while it runs (or its spawned process is starting), else
        /// `no process` — the pid of a process that ended is not shown — and the executable.
        static func line(_ app: JSONValue) -> String {
            let running = app["state"]?.stringValue != LifecycleState.notRunning.rawValue
                || app["spawned"]?.boolValue == true
            let pid = running ? app["pid"]?.int64Value.map { "pid \($0)" } ?? "no process" : "no process"
            let id = app["id"]?.stringValue ?? "?"
            return "\(id)  \(app["state"]?.stringValue ?? "?")  \(pid)  \(app["executable"]?.stringValue ?? "")"
        }

        func run() throws {
            try AppsCall.run(global, LifebusMethod.apps, params: [:]) { result in
                let apps = result["apps"]?.arrayValue ?? []
                guard !apps.isEmpty else { return "no app is installed" }
                return apps.map(Self.line).joined(separator: "\n")
            }
        }
    }
}

/// One request of the app commands, printed as JSON (`--json`) or as the line `describe` makes.
enum AppsCall {
    static func run(
        _ global: GlobalOptions, _ method: String, params: JSONObject, describe: @escaping (JSONValue) -> String
    ) throws {
        let json = global.json
        try request(global, method, params: params) { result in
            print(json ? result.jsonText : describe(result))
        }
    }

    /// Sends the request and hands its result to `handle` (an error ends the command with exit status 4).
    static func request(
        _ global: GlobalOptions, _ method: String, params: JSONObject, handle: @escaping (JSONValue) -> Void
    ) throws {
        try BrokerCall.run(path: global.socketPath, json: global.json) { peer, _, finish in
            peer.request(method, params: .object(params)) { answer in
                switch answer {
                case .success(let result):
                    handle(result)
                    finish(.success)
                case .failure(let error):
                    finish(.refused(error))
                }
            }
        }
    }

    static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
