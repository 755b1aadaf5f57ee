package import LifebusLifecycle

/// One row of `Protocol/lifecycle.md`: a starting situation, what happens, and per profile the exact
/// journal (transitions, kills, process starts, warnings, rejections) and the situation it ends in.
/// A value shared by the core's table test (a virtual device) and the end-to-end test (a real broker).
package struct Row: Sendable, CustomStringConvertible {
    package let id: String
    package let title: String
    package let setup: [Step]
    package let steps: [Step]
    package let expected: [Profile: Expected]

    package var description: String {
        "\(id) \(title)"
    }
}

/// What one row expects under one profile: the journal lines its steps add, and the situation it ends in.
package struct Expected: Sendable {
    package let journal: [String]
    package let situation: String
}
