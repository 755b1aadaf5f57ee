public import ArgumentParser
public import LifebusLifecycle

/// What `lifebus run --profile` selects: one profile, or `all` of them in declaration order. Its values are derived
/// from `Profile.allCases` (the help lists them; anything else is a usage error naming them).
public enum ProfileSelection: Hashable, Sendable, CaseIterable, ExpressibleByArgument {
    case only(Profile)
    case all

    public static var allCases: [ProfileSelection] { Profile.allCases.map(Self.only) + [.all] }

    public init?(argument: String) {
        guard let selection = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
        self = selection
    }

    /// The word a user types for it: the profile's wire spelling, or `all`.
    public var argument: String {
        switch self {
        case .only(let profile): profile.rawValue
        case .all: "all"
        }
    }

    public static var allValueStrings: [String] { allCases.map(\.argument) }

    public var defaultValueDescription: String { argument }

    /// The profiles it selects, in declaration order.
    public var profiles: [Profile] {
        switch self {
        case .only(let profile): [profile]
        case .all: Profile.allCases
        }
    }
}
