import LifebusLifecycle
import LifebusProtocol

private let scenes = Set(Profile.allCases.filter { $0.sceneSupport != .none })
private let destructions = Set(Profile.allCases.filter(\.hasDestructionConditions))
private let restores = Set(Profile.allCases.filter(\.restoresInteractionState))
private let scenesRequired = Set(Profile.allCases.filter { $0.sceneSupport == .required })
private let rejected = "a rejected event: rejections are answered, not journaled"
private let movesNobody = "it sends no callback now, so it leaves no record"

private func J(_ profiles: Set<Profile>, _ matches: @escaping @Sendable (Observation) -> Bool) -> CoverageRow.Evidence {
    .journal(profiles: profiles, matches: matches)
}

/// The scene rows of `Protocol/lifecycle.md` (S01–S52), in the document's order, with what in a journal shows each:
/// a scene callback's transition (its callback, the event that caused it, the app's other callbacks of that event),
/// under the profiles with scenes.
extension CoverageRow {
    static let sceneRows: [CoverageRow] = [
        CoverageRow("S01", "scene app connects (cold launch)",
                    J(scenes) { $0.byLaunch && $0.moved(.configurationForConnecting) }),
        CoverageRow("S02", "A ended, its session kept a payload → `launch A`",
                    J(scenes) { $0.byLaunch && $0.moved(.willConnectTo) && $0.appCallbacks.contains(.didFinishLaunching)
                        && !$0.appCallbacks.contains(.configurationForConnecting) }),
        CoverageRow("S03", "A running, scene active → `launch A --url U`",
                    J(scenes) { $0.byLaunchWithOptions && $0.moved(.openURLContexts) }),
        CoverageRow("S10", "A active → `home`",
                    J(scenes) { $0.event == .home && $0.moved(.sceneDidEnterBackground) }),
        CoverageRow("S11", "A active → `call`, `call --decline`",
                    J(scenes) { $0.event == .call(.decline) && $0.moved(.sceneDidBecomeActive) }),
        CoverageRow("S12", "A active → `sleep`, `wake`",
                    J(scenes) { $0.event == .wake && $0.moved(.sceneDidBecomeActive) }),
        CoverageRow("S13", "A suspended → `launch A`",
                    J(scenes) {
                        $0.byLaunch && $0.moved(.sceneWillEnterForeground) && !$0.appCallbacks.contains(.willConnectTo)
                    }),
        CoverageRow("S20", "A (multiple scenes) active → `scene open A`",
                    J(scenes) {
                        $0.byScene(.open) && $0.moved(.willConnectTo)
                            && $0.appCallbacks.contains(.sceneWillResignActive)
                    }),
        CoverageRow("S21", "A without multiple scenes, a scene connected → `scene open A`",
                    .notInJournal(rejected)),
        CoverageRow("S22", "A with two scenes → `scene close A 1`",
                    J(scenes) { $0.byScene(.closeScene) && $0.moved(.sceneDidDisconnect) }),
        CoverageRow("S23", "A suspended → `scene close A 1` (a window)",
                    .notInJournal(movesNobody)),
        CoverageRow("S24", "A active → `scene close A` / `terminate A --by-user`",
                    J(scenes) {
                        ($0.byScene(.closeApp) || $0.byTerminate(byUser: true)) && $0.moved(.sceneWillResignActive)
                    }),
        CoverageRow("S25", "A suspended → `terminate A --by-user`",
                    .notInJournal(
                        "its kill record is the app-delegate row's: the journal does not say the app adopted scenes")),
        CoverageRow("S26", "A's scene in the background → `scene reclaim A 1`",
                    J(scenes) { $0.byScene(.reclaim) && $0.moved(.stateRestorationActivity) }),
        CoverageRow("S27", "session 1 without a scene → `scene reconnect A 1`",
                    J(scenes) { $0.byScene(.reconnect) && $0.moved(.willConnectTo) }),
        CoverageRow("S28", "A with two scenes, 2 active → `scene focus A 1`",
                    J(scenes) { $0.byScene(.focus) && $0.moved(.sceneDidBecomeActive) }),
        CoverageRow("S29", "an app-delegate app → any `scene` event",
                    .notInJournal(rejected)),
        CoverageRow("S30", "ios27, an app that does not adopt scenes connects (launches)",
                    J(scenesRequired) {
                        $0.processEvent == .killed && $0.processReason == .kill(.sceneLifecycleRequired)
                    }),
        CoverageRow("S31", "ios3/4/7, an app that adopts scenes says `hello`",
                    .notInJournal("a refused hello is answered, not journaled")),
        CoverageRow("S40", "A (audio) background with a scene, B suspended → `memory --level critical`",
                    J(scenes) { $0.event == .memoryWarning(.critical) && $0.moved(.sceneDidDisconnect) }),
        CoverageRow("S41", "A active → `terminate A` (system)",
                    J(scenes) { $0.byTerminate(byUser: false) && $0.moved(.sceneDidDisconnect) }),
        CoverageRow("S42", "ios26+, A declares `userInitiatedDismissal`, active → `home`",
                    J(destructions) { $0.event == .home && $0.moved(.didDiscardSceneSessions) }),
        CoverageRow("S43", "ios26+, A declares `systemDisconnection`, active → `terminate A` (system)",
                    J(destructions) { $0.byTerminate(byUser: false) && $0.moved(.didDiscardSceneSessions) }),
        CoverageRow("S44", "ios26+, A declares `systemDisconnection`, suspended → `terminate A` (system), `launch A`",
                    .notInJournal("its discards are announced at the next launch as S25's: the journal does not say "
                                  + "which end discarded the sessions")),
        CoverageRow("S45", "ios13+, A ended, its session kept a payload, the device locked and protected data gone → "
                        + "`push A` (silent: launched behind the lock), `wake`, `launch A`",
                    J(scenes) { $0.byLaunch && $0.moved(.willConnectTo)
                        && $0.appCallbacks.contains(.protectedDataDidBecomeAvailable) }),
        CoverageRow("S46", "ios13+, A ended, its session kept a payload, the device locked and protected data gone → "
                        + "A's process connects (launched behind the lock, in front), `wake`",
                    J(scenes) { $0.event == .wake && $0.moved(.willConnectTo) }),
        CoverageRow("S47", "A ended, its session kept a payload → `push A` (silent: a background launch)",
                    J(scenes) { $0.byPush && $0.moved(.didReceiveRemoteNotification)
                        && $0.appCallbacks.contains(.didFinishLaunching)
                        && !$0.appCallbacks.contains(.didEnterBackground)
                        && !$0.appCallbacks.contains(.willConnectTo) }),
        CoverageRow("S48", "`connectsSceneAtBackgroundLaunch`, A ended, its session kept a payload → `push A`",
                    J(scenes) { $0.byPush && $0.moved(.sceneDidEnterBackground)
                        && $0.appCallbacks.contains(.didFinishLaunching) && $0.appCallbacks.contains(.willConnectTo) }),
        CoverageRow("S49", "`connectsSceneAtBackgroundLaunch`, as S48, then `launch A`",
                    .notInJournal("as S13's: the journal does not say a background launch connected the scene")),
        CoverageRow("S50", "`connectsSceneAtBackgroundLaunch`, as S45: `push A` behind the lock, `wake`, `launch A`",
                    J(scenes) { $0.byPush && $0.moved(.willConnectTo) && $0.protectedDataLost }),
        CoverageRow("S51", "`connectsSceneAtBackgroundLaunch`, as S45 with `refresh` submitted: `bgtask A` for "
                        + "`refresh` behind the lock, `wake`",
                    J(restores) { $0.event == .wake && $0.moved(.restoreInteractionState)
                        && !$0.appCallbacks.contains(.willConnectTo) }),
        CoverageRow("S52", "`connectsSceneAtBackgroundLaunch`, as S50 after the push and the `wake`, then `sleep` → "
                        + "`push A` at once (protected data still available)",
                    J(restores) { $0.byPush && $0.moved(.restoreInteractionState)
                        && !$0.appCallbacks.contains(.willConnectTo) }),
    ]
}

/// The words the scene rows are written in.
extension Observation {
    /// The kinds of `scene` event, as the rows tell them apart.
    enum SceneEventKind {
        case open, closeScene, closeApp, reclaim, reconnect, focus
    }

    /// Caused by a `scene` event of this kind, of any app.
    func byScene(_ kind: SceneEventKind) -> Bool {
        guard case .scene(let scene) = event else { return false }
        switch (scene, kind) {
        case (.open, .open), (.reclaim, .reclaim), (.reconnect, .reconnect), (.focus, .focus): return true
        case (.close(_, let scene), .closeScene): return scene != nil
        case (.close(_, let scene), .closeApp): return scene == nil
        default: return false
        }
    }

    /// Caused by a `push` (a silent one launches or resumes the app into the background).
    var byPush: Bool {
        if case .push = event { return true }
        return false
    }

    /// Caused by a `launch` that carried a URL or a notification.
    var byLaunchWithOptions: Bool {
        if case .launch(_, let options) = event { return options != nil }
        return false
    }

    /// The process record's reason, when the record is one.
    var processReason: ProcessRecord.Reason? {
        if case .process(let record) = record { return record.reason }
        return nil
    }
}
