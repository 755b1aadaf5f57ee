@_spi(RawJSON) import LifebusJSON
import LifebusLifecycle
@testable import LifebusProtocol
import Testing

/// `ShortSpellings` finds a case from exactly its raw value's bytes, and nothing from any other text.
@Suite struct ShortSpellingsTests {
    static func find<E>(_ spellings: ShortSpellings<E>, _ text: String) -> E? {
        Array(text.utf8).withUnsafeBytes { spellings.choice(spelledBy: $0) }
    }

    @Test func findsEveryCaseFromItsSpelling() {
        let events = ShortSpellings<FireParams.FireEvent>()
        for event in FireParams.FireEvent.allCases { #expect(Self.find(events, event.rawValue) == event) }
        let actions = ShortSpellings<FireParams.Action>()
        for action in FireParams.Action.allCases { #expect(Self.find(actions, action.rawValue) == action) }
        let levels = ShortSpellings<MemoryWarningLevel>()
        for level in MemoryWarningLevel.allCases { #expect(Self.find(levels, level.rawValue) == level) }
    }

    @Test(arguments: ["", "cal", "calll", "Call", "call\0", "\0call", "memory-warnin", "memory-warningg",
                      "memory-warning-and-more", "sms ", "hom\u{e9}"])
    func findsNothingForAnyOtherText(text: String) {
        #expect(Self.find(ShortSpellings<FireParams.FireEvent>(), text) == nil)
    }
}
