import ArgumentParser
import LifebusLifecycle
import Testing

@testable import LifebusCLI

/// `lifebus run --profile`: every profile's wire word and `all` parse, anything else does not, and the values the
/// help lists are exactly those (derived from `Profile.allCases`).
@Suite struct ProfileSelectionTests {
    @Test(arguments: Profile.allCases)
    func eachProfileParsesFromItsWireWord(profile: Profile) {
        #expect(ProfileSelection(argument: profile.rawValue) == .only(profile))
        #expect(ProfileSelection.only(profile).profiles == [profile])
    }

    @Test func allSelectsEveryProfileInOrder() {
        #expect(ProfileSelection(argument: "all") == .all)
        #expect(ProfileSelection.all.profiles == Profile.allCases)
    }

    @Test func theValuesAreEveryProfileThenAll() {
        #expect(ProfileSelection.allValueStrings == Profile.allCases.map(\.rawValue) + ["all"])
        #expect(ProfileSelection(argument: "ios9") == nil)
        #expect(ProfileSelection(argument: "IOS7") == nil)
    }
}
