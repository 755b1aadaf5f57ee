import ArgumentParser
import LifebusLifecycle

/// The states `lifebus wait` waits for: app states (`background|suspended`) for `APP`, or scene states
/// (`foregroundActive`, `background|unattached`) for `APP/SCENE`. A plain value; invariant: exactly one of the lists
/// is set and it is not empty. `background` is both an app and a scene state: it reads as whichever the target needs.
struct WaitStates: ExpressibleByArgument, Equatable {
    let words: [String]
    /// The words as app states, `nil` when one is not an app state.
    let lifecycle: [LifecycleState]?
    /// The words as scene states, `nil` when one is not a scene state.
    let scene: [SceneState]?

    init?(argument: String) {
        let words = argument.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == "|" })
            .map(String.init)
        let lifecycle = words.map { LifecycleState(rawValue: $0) }
        let scene = words.map { SceneState(rawValue: $0) }
        self.words = words
        self.lifecycle = lifecycle.contains(nil) ? nil : lifecycle.compactMap { $0 }
        self.scene = scene.contains(nil) ? nil : scene.compactMap { $0 }
        guard !words.isEmpty, self.lifecycle != nil || self.scene != nil else { return nil }
    }

    static var allValueStrings: [String] {
        LifecycleState.allCases.map(\.rawValue) + SceneState.allCases.map(\.rawValue).filter { $0 != "background" }
    }
}

/// `APP` or `APP/SCENE` (`com.example.Notes/2`: scene 2 of the app, as `history` and `watch` name it).
struct WaitTarget: Equatable {
    let app: String
    let scene: SceneID?

    init(_ text: String) throws {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        app = String(parts[0])
        try requireAppID(app, option: "APP")
        guard parts.count == 2 else {
            scene = nil
            return
        }
        guard let number = UInt32(parts[1]), number >= 1 else {
            throw ValidationError("APP/SCENE '\(text)': SCENE must be a scene number (1, 2, …)")
        }
        scene = SceneID(number)
    }
}
