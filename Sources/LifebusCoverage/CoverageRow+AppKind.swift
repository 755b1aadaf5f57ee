import LifebusLifecycle

/// Which kind of app can reach a row: the app-delegate rows whose evidence is an app-delegate callback a scene app
/// never receives (`willResignActive`, `didBecomeActive`, `didEnterBackground`, `willEnterForeground`: a scene app
/// gets them as notifications posted from its scenes' edges, `Protocol/lifecycle.md`'s scene table), and the scene
/// rows an app-delegate app never reaches (every one but S30, the app-delegate app that fails to launch under ios27,
/// and B40 and B41, a scene app's tapped notification, and B61, its notification in front).
/// Coverage counts such a row as not applicable to the app, not as never reached.
extension CoverageRow {
    /// The kind of app a journal shows: one with a scene transition (a scene callback, `configurationForConnecting`,
    /// or a scene's state change) is a scene app, any other an app-delegate app.
    public enum AppKind: String, Sendable {
        case appDelegate
        case scene
    }

    /// The app-delegate rows a scene app cannot reach: their evidence is an app-delegate callback it never gets.
    static let appDelegateOnly: Set<String> = [
        "R01", "R03", "R04", "R05", "R06", "R07", "R34", "R10", "R14", "R15", "R17", "R18", "R19", "R20", "R21",
        "R23", "R26", "R27", "R29", "R41", "R42", "R71",
        // a scene app's tap comes with `sceneWillEnterForeground` (B40); its URLs go to its scenes, never `openURL`
        "B36", "B37", "B38", "B39",
        // a scene app's notification in front is B61's
        "B60",
    ]

    /// The scene rows an app-delegate app cannot reach (S30 is its own: an app-delegate app under ios27).
    static let sceneOnly: Set<String> = Set(sceneRows.map(\.id)).subtracting(["S30"]).union(["B40", "B41", "B61"])

    /// Whether an app of `kind` can reach this row at all.
    public func applies(to kind: AppKind) -> Bool {
        switch kind {
        case .appDelegate: !Self.sceneOnly.contains(id)
        case .scene: !Self.appDelegateOnly.contains(id)
        }
    }
}

extension Observation {
    /// Whether the record shows a scene app: a scene transition, a scene callback or `configurationForConnecting`.
    var showsSceneApp: Bool {
        guard let transition else { return false }
        return transition.scene != nil || transition.callback?.scope == .scene
            || transition.callback == .configurationForConnecting
    }
}
