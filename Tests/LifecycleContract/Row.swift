package import LifebusLifecycle

/// One row of `Protocol/lifecycle.md`: a starting situation, what happens, and per profile the exact
/// journal (transitions, kills, process starts, warnings, rejections) and the situation it ends in.
/// A value shared by the core's table test (a virtual device) and the end-to-end test (a real broker).
///
/// A row does not apply under every profile, and says why where it does not (`inapplicable`), derived from its
/// apps: one that does not adopt scenes cannot launch under a profile that requires them (`ios27`: S30 says what
/// happens instead); one that adopts scenes is refused where there are none (`ios3`, `ios4`, `ios7`: S31).
/// Invariant: every profile is in exactly one of `expected` and `inapplicable`.
package struct Row: Sendable, CustomStringConvertible {
    package let id: String
    package let title: String
    package let setup: [Step]
    package let steps: [Step]
    package let expected: [Profile: Expected]
    /// The profiles the row does not apply under, each with the reason.
    package let inapplicable: [Profile: String]
    /// `scene` for the rows of the scene table (S…).
    package let tags: Set<RowTag>
    /// The device's knobs over the profile's (`DeviceKnobs`; `lifebusd --background-launch-scene connects` for
    /// S48–S52).
    package let knobs: DeviceKnobs

    package init(
        id: String, title: String, setup: [Step], steps: [Step], expected: [Profile: Expected], tags: Set<RowTag> = [],
        knobs: DeviceKnobs = DeviceKnobs()
    ) {
        self.id = id
        self.title = title
        self.setup = setup
        self.steps = steps
        self.tags = tags
        self.knobs = knobs
        var inapplicable: [Profile: String] = [:]
        let connected = (setup + steps).compactMap(\.connected)
        let flags = connected.map(\.flags)
        let sceneApps = Set(connected.filter(\.flags.adoptsScenes).map(\.app))
        // A launch of an app not connected as a scene app spawns an app-delegate app (the drivers' default flags).
        let launchesOthers = (setup + steps).compactMap(\.launched).contains { !sceneApps.contains($0) }
        for profile in Profile.allCases where !tags.contains(.profileEdge) {
            if profile.sceneSupport == .required && (flags.contains { !$0.adoptsScenes } || launchesOthers) {
                inapplicable[profile] = "an app that does not adopt scenes cannot launch under \(profile) (S30)"
            } else if profile.sceneSupport == .none && flags.contains(where: \.adoptsScenes) {
                inapplicable[profile] = "an app that adopts scenes is refused under \(profile) (S31)"
            }
        }
        self.inapplicable = inapplicable
        self.expected = expected.filter { inapplicable[$0.key] == nil }
    }

    package var description: String {
        "\(id) \(title)"
    }
}

/// What one row expects under one profile: the journal lines its steps add, and the situation it ends in.
package struct Expected: Sendable {
    package let journal: [String]
    package let situation: String
}

/// A row's kind, for the runners that pick rows by it.
package enum RowTag: String, Sendable, Hashable {
    /// A row of the scene table: it needs scene apps (the live runners carry them once the broker does).
    case scene
    /// A row about the profiles' edge itself (S30, S31): it applies under every profile.
    case profileEdge
}
