/// What the apps under test declare they do, so the fuzzer can check it (`lifebus run --random … --fact …`):
///
/// - `saves=MARK` — the app marks `MARK` before it answers every `didEnterBackground` and every `willTerminate`
///   (it saved its state);
/// - `restores=MARK[:KEY,KEY…]` — after every relaunch that follows a save (`didFinishLaunching` once the app has
///   marked its `saves` mark in the run), the app marks `MARK` before it answers `didFinishLaunching`, with data
///   whose members KEY… (all the members the two marks share when no KEY is given) equal those of the last save;
/// - `scenes` — the apps adopt scenes and support several windows where the profile has scenes: the fuzzer weighs
///   the scene events (`fire scene …`) by their declared weights;
/// - `task=ID[:AFTER]` — the app registers the `BGTask` identifier ID and submits an `appRefresh` request for it
///   (beginning AFTER later, or when run) while it launches, and completes the task when it runs: the fuzzer weighs
///   `fire bgtask APP ID`;
/// - `processing=ID[:AFTER][:power][:network]` — the app registers and submits that `BGProcessingTask` (beginning
///   AFTER later, requiring external power and the network as given) while it launches, and completes it when it
///   runs: the fuzzer weighs `fire power …` and `fire network …`, and checks the task never runs while a
///   requirement it declares is unmet;
/// - `pushes` — the fuzzer weighs pushes (`fire push APP`, silent and `--alert`);
/// - `taps` — the fuzzer weighs a visible notification tapped (`fire push APP --tap`);
/// - `protected=MARK` — the app marks MARK when a write to a protected file fails (the device's protected data was
///   unavailable): "no protected write failed" breaks at such a mark.
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
    /// The `BGTask` the apps register and submit while they launch (`task=ID[:AFTER]`), with its begin delay.
    public var task: (identifier: String, after: Duration?)?
    /// The `BGProcessingTask` the apps register and submit while they launch (`processing=…`).
    public var processing: ProcessingTaskFact?
    /// The fuzzer weighs pushes.
    public var pushes = false
    /// The fuzzer weighs tapped notifications.
    public var taps = false
    /// The mark an app makes when a protected write fails.
    public var protectedWriteFailure: String?

    public init(
        saves: String? = nil, restores: String? = nil, restoredKeys: [String]? = nil, scenes: Bool = false,
        task: (identifier: String, after: Duration?)? = nil, processing: ProcessingTaskFact? = nil,
        pushes: Bool = false, taps: Bool = false, protectedWriteFailure: String? = nil
    ) {
        self.saves = saves
        self.restores = restores
        self.restoredKeys = restoredKeys
        self.scenes = scenes
        self.task = task
        self.processing = processing
        self.pushes = pushes
        self.taps = taps
        self.protectedWriteFailure = protectedWriteFailure
    }

    public static func == (lhs: AppFacts, rhs: AppFacts) -> Bool {
        lhs.facts == rhs.facts
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
        if let task { facts.append(.task(identifier: task.identifier, after: task.after)) }
        if let processing { facts.append(.processing(processing)) }
        if pushes { facts.append(.pushes) }
        if taps { facts.append(.taps) }
        if let protectedWriteFailure { facts.append(.protectedWrites(failureMark: protectedWriteFailure)) }
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
            case .task(let identifier, let after):
                task = (identifier, after)
            case .processing(let task):
                processing = task
            case .pushes:
                pushes = true
            case .taps:
                taps = true
            case .protectedWrites(let mark):
                protectedWriteFailure = mark
            }
        }
        if restores != nil, saves == nil {
            throw Failure(description: "--fact restores=… needs --fact saves=MARK: it restores what was saved")
        }
    }
}
