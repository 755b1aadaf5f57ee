/// What the apps under test declare they do, so the fuzzer can check it (`lifebus run --random … --fact …`):
///
/// - `saves=MARK` — the app marks `MARK` before it answers every `didEnterBackground` and every `willTerminate`
///   (it saved its state);
/// - `restores=MARK[:KEY,KEY…]` — after every relaunch that follows a save (`didFinishLaunching` once the app has
///   marked its `saves` mark in the run), the app marks `MARK` before it answers `didFinishLaunching`, with data
///   whose members KEY… (all the members the two marks share when no KEY is given) equal those of the last save;
/// - `scenes` — the apps adopt scenes and support several windows where the profile has scenes: the fuzzer weighs
///   the scene events (`fire scene …`) by their declared weights.
///
/// Each is one `AppFact` on the command line. A plain value; every app of the run is held to the same facts.
/// Invariant: `restores` is set only with `saves` (`init(_:)` refuses it; the memberwise `init` trusts its caller).
public struct AppFacts: Sendable, Equatable {
    public var saves: String?
    public var restores: String?
    /// The members a restore must bring back; `nil`: every member the save and the restore marks share.
    public var restoredKeys: [String]?
    /// The apps adopt scenes (and support several) under the profiles that have them.
    public var scenes = false

    public init(saves: String? = nil, restores: String? = nil, restoredKeys: [String]? = nil, scenes: Bool = false) {
        self.saves = saves
        self.restores = restores
        self.restoredKeys = restoredKeys
        self.scenes = scenes
    }

    /// Why a set of facts was refused.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The facts as the `--fact` options that declare them.
    public var facts: [AppFact] {
        var facts: [AppFact] = []
        if let saves { facts.append(.saves(mark: saves)) }
        if let restores { facts.append(.restores(mark: restores, keys: restoredKeys)) }
        if scenes { facts.append(.scenes) }
        return facts
    }

    /// The `--fact` option values that declare these facts.
    public var options: [String] { facts.map(\.text) }

    /// The facts of the `--fact` options, in order (a later one of a kind replaces an earlier); refused when a
    /// restore is declared without a save.
    public init(_ facts: [AppFact]) throws(Failure) {
        for fact in facts {
            switch fact {
            case .saves(let mark):
                saves = mark
            case .restores(let mark, let keys):
                restores = mark
                restoredKeys = keys
            case .scenes:
                scenes = true
            }
        }
        if restores != nil, saves == nil {
            throw Failure(description: "--fact restores=… needs --fact saves=MARK: it restores what was saved")
        }
    }
}
