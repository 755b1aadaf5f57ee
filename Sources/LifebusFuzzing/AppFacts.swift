/// What the apps under test declare they do, so the fuzzer can check it (`lifebus run --random … --fact …`):
///
/// - `saves=MARK` — the app marks `MARK` before it answers every `didEnterBackground` and every `willTerminate`
///   (it saved its state);
/// - `restores=MARK[:KEY,KEY…]` — after every relaunch that follows a save (`didFinishLaunching` once the app has
///   marked its `saves` mark in the run), the app marks `MARK` before it answers `didFinishLaunching`, with data
///   whose members KEY… (all the members the two marks share when no KEY is given) equal those of the last save.
///
/// A plain value; every app of the run is held to the same facts. Invariant: `restores` is set only with `saves`.
public struct AppFacts: Sendable, Equatable {
    public var saves: String?
    public var restores: String?
    /// The members a restore must bring back; `nil`: every member the save and the restore marks share.
    public var restoredKeys: [String]?

    public init(saves: String? = nil, restores: String? = nil, restoredKeys: [String]? = nil) {
        self.saves = saves
        self.restores = restores
        self.restoredKeys = restoredKeys
    }

    /// Why an `--fact` was refused.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The `--fact` options that declare these facts.
    public var options: [String] {
        var options: [String] = []
        if let saves { options.append("saves=\(saves)") }
        if let restores {
            options.append("restores=\(restores)" + (restoredKeys.map { ":" + $0.joined(separator: ",") } ?? ""))
        }
        return options
    }

    /// Reads the `--fact` options, in order.
    public init(parsing facts: [String]) throws(Failure) {
        for fact in facts {
            guard let equals = fact.firstIndex(of: "="), !fact[fact.index(after: equals)...].isEmpty else {
                throw Failure(description: "--fact \(fact): expected saves=MARK or restores=MARK[:KEY,…]")
            }
            let value = String(fact[fact.index(after: equals)...])
            switch fact[..<equals] {
            case "saves":
                saves = value
            case "restores":
                let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
                restores = parts[0]
                restoredKeys = parts.count > 1 ? parts[1].split(separator: ",").map(String.init) : nil
            default:
                throw Failure(description: "--fact \(fact): unknown fact \(fact[..<equals]) (saves, restores)")
            }
        }
        if restores != nil, saves == nil {
            throw Failure(description: "--fact restores=… needs --fact saves=MARK: it restores what was saved")
        }
    }
}
