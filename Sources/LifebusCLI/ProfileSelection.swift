public import ArgumentParser
public import LifebusLifecycle

/// What `lifebus run --profile` selects: profiles named in the order given, separated by commas (`ios7,ios27`:
/// the order `--diff` compares them in), or `all` of them in declaration order (era order). Its words are derived
/// from `Profile.allCases` (the help lists them; anything else, a repeated profile or an empty item is a usage error
/// naming them).
///
/// Invariant: `profiles` is not empty and names no profile twice.
public struct ProfileSelection: Hashable, Sendable, ExpressibleByArgument {
    /// The profiles selected, in the order they run and are compared.
    public let profiles: [Profile]

    /// Every profile, in declaration order.
    public static let all = ProfileSelection(checked: Profile.allCases)

    /// One profile.
    public static func only(_ profile: Profile) -> ProfileSelection {
        ProfileSelection(checked: [profile])
    }

    private init(checked profiles: [Profile]) {
        self.profiles = profiles
    }

    public init?(argument: String) {
        if argument == "all" {
            self = .all
            return
        }
        var profiles: [Profile] = []
        for word in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let profile = Profile(rawValue: String(word)), !profiles.contains(profile) else { return nil }
            profiles.append(profile)
        }
        self.init(checked: profiles)
    }

    /// The word a user types for it: `all`, or the profiles' wire spellings joined by commas.
    public var argument: String {
        self == .all ? "all" : profiles.map(\.rawValue).joined(separator: ",")
    }

    /// What the help lists: each profile's word, then `all` (a list joins them with commas).
    public static var allValueStrings: [String] { Profile.allCases.map(\.rawValue) + ["all"] }

    public var defaultValueDescription: String { argument }
}
