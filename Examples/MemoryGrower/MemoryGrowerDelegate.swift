import Lifebus
import LifebusIO
import LifebusJSON

/// MemoryGrower: an app that grows a cache while it runs, to show memory pressure from real resident memory. The
/// well-behaved one frees its cache on a memory warning and stops growing; the hog (`--ignore-warnings`) keeps
/// what it holds and keeps growing, as jetsam's victims do.
///
/// Owns the cache (blocks of touched bytes, so they are resident) and the task that grows it; bound to the main
/// actor. The app id is `$LIFEBUS_APP_ID` when the broker started it (from a manifest), else
/// `com.example.MemoryGrower`. Each step is reported with `mark` and `reportMemory`, so tests and the journal see
/// it.
@MainActor
final class MemoryGrowerDelegate: ApplicationDelegate {
    private let settings: GrowthSettings
    private var cache: [[UInt8]] = []
    private var grower: Task<Void, Never>?

    init(settings: GrowthSettings) {
        self.settings = settings
    }

    static func main() async -> Never {
        let arguments = LaunchArguments.commandLine(program: "MemoryGrower", allowingUnknown: true)
        let id = ProcessEnvironment.current["LIFEBUS_APP_ID"] ?? "com.example.MemoryGrower"
        await ApplicationMain(id: id, delegate: MemoryGrowerDelegate(settings: GrowthSettings(arguments.remaining)),
                              options: arguments.options)
    }

    private var cacheBytes: Int { cache.reduce(0) { $0 + $1.count } }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        await mark(application, "growing", [
            "stepMiB": .integer(Int64(settings.stepMiB)), "ignoresWarnings": .bool(settings.ignoresWarnings),
        ])
        grower = Task { [weak self] in await self?.grow(application) }
    }

    func didReceiveMemoryWarning(_ application: Application) async {
        let held = cacheBytes
        guard !settings.ignoresWarnings else {
            await mark(application, "warning-ignored", ["cacheBytes": .integer(Int64(held))])
            return
        }
        grower?.cancel()
        cache = []
        await mark(application, "cache-freed", ["freedBytes": .integer(Int64(held))])
        try? await application.reportMemory(bytes: 0)
    }

    func willTerminate(_ application: Application) async {
        grower?.cancel()
        await mark(application, "terminating", ["cacheBytes": .integer(Int64(cacheBytes))])
    }

    /// Adds a block every period until the limit (or cancellation by a warning).
    private func grow(_ application: Application) async {
        let step = settings.stepMiB << 20
        while !Task.isCancelled, cacheBytes + step <= settings.limitMiB << 20 {
            cache.append([UInt8](repeating: 1, count: step))  // written, so resident
            let held = Int64(cacheBytes)
            try? await application.reportMemory(bytes: held)
            await mark(application, "cache-grown", ["cacheBytes": .integer(held)])
            try? await Task.sleep(for: .milliseconds(settings.periodMs))
        }
    }

    /// Reports a step; a broker that is away loses the mark, and the app carries on.
    private func mark(_ application: Application, _ name: String, _ data: JSONObject) async {
        try? await application.mark(name, data: data)
    }
}
