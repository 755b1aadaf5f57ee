import ArgumentParser
import LifebusLifecycle
import Testing

@testable import LifebusCLI

/// `lifebus run --profile`: every profile's wire word, comma-separated lists of them (kept in the order given) and
/// `all` parse; anything else does not, and the values the help lists are exactly the profiles and `all` (derived
/// from `Profile.allCases`).
@Suite struct ProfileSelectionTests {
    @Test(arguments: Profile.allCases)
    func eachProfileParsesFromItsWireWord(profile: Profile) {
        #expect(ProfileSelection(argument: profile.rawValue) == .only(profile))
        #expect(ProfileSelection.only(profile).profiles == [profile])
        #expect(ProfileSelection.only(profile).argument == profile.rawValue)
    }

    @Test func allSelectsEveryProfileInOrder() {
        #expect(ProfileSelection(argument: "all") == .all)
        #expect(ProfileSelection.all.profiles == Profile.allCases)
        #expect(ProfileSelection.all.argument == "all")
    }

    @Test func aListKeepsTheOrderGiven() throws {
        let last = try #require(Profile.allCases.last)
        let first = try #require(Profile.allCases.first)
        let selection = try #require(ProfileSelection(argument: "\(last.rawValue),\(first.rawValue)"))
        #expect(selection.profiles == [last, first])
        #expect(selection.argument == "\(last.rawValue),\(first.rawValue)")
        #expect(ProfileSelection(argument: selection.argument) == selection)
    }

    @Test(arguments: ["ios9", "IOS7", "", ",", "ios7,", ",ios7", "ios7,ios7", "ios7,all", "ios7;ios4"])
    func anythingElseIsRefused(word: String) {
        #expect(ProfileSelection(argument: word) == nil)
    }

    @Test func theValuesAreEveryProfileThenAll() {
        #expect(ProfileSelection.allValueStrings == Profile.allCases.map(\.rawValue) + ["all"])
    }
}
