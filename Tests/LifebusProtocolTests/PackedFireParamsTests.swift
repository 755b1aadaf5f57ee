import LifebusLifecycle
import Testing

@testable import LifebusProtocol

/// `FireParams.Packed` stores each enum as its `position` (its index in `allCases`) in a field of fixed width: every
/// case must fit, so a case added beyond a width fails here (not as a request that decodes to another event), and the
/// fields must fit the word.
@Suite struct PackedFireParamsTests {
    typealias Packed = FireParams.Packed

    @Test func everyEventFitsItsField() {
        #expect(FireEvent.allCases.count <= 1 << Packed.eventBits)
    }

    @Test func everyActionAndNoneFitItsField() {
        #expect(FireAction.allCases.count + 1 <= 1 << Packed.actionBits)
    }

    @Test func everyWarningLevelAndNoneFitItsField() {
        #expect(MemoryWarningLevel.allCases.count + 1 <= 1 << Packed.levelBits)
    }

    /// The positions the fields hold are the cases' indexes in `allCases`, and `init(position:)` reads them back (a
    /// case inserted or moved without its `position` fails here).
    @Test func eachCasePositionIsItsIndexInAllCases() {
        for (index, event) in FireEvent.allCases.enumerated() {
            #expect(event.position == index && FireEvent(position: index) == event, "\(event)")
        }
        for (index, action) in FireAction.allCases.enumerated() {
            #expect(action.position == index && FireAction(position: index) == action, "\(action)")
        }
        for (index, level) in MemoryWarningLevel.allCases.enumerated() {
            #expect(level.position == index && MemoryWarningLevel(position: index) == level, "\(level)")
        }
    }

    @Test func theFieldsAndTheMembersFitTheWord() {
        let members = UInt8.bitWidth - FireParams.Members.all.rawValue.leadingZeroBitCount
        #expect(Packed.eventBits + Packed.actionBits + Packed.levelBits + 2 + members <= UInt32.bitWidth)
    }

    @Test(arguments: FireEvent.allCases)
    func eachEventWithEachActionAndLevelComesBackFromItsWord(event: FireEvent) throws {
        for action in [nil] + FireAction.allCases {
            for level in [nil] + MemoryWarningLevel.allCases {
                for (byUser, wait) in [(false, false), (true, true)] {
                    let params = FireParams(event: event, action: action, level: level, byUser: byUser, wait: wait)
                    #expect(Packed(params, members: .all)?.params == params)
                }
            }
        }
    }
}
