import LifebusProtocol
import Testing

@testable import LifebusCLI

/// `lifebus subscribe`'s hooks see whether protected data is available (`Protocol/README.md` §10.2).
@Suite struct SubscribeProtectedDataTests {
    @Test(arguments: [(true, "available"), (false, "unavailable")])
    func everyHookSeesLifebusProtectedData(available: Bool, word: String) {
        let params = CallbackParams(callbackID: 3, callback: .didEnterBackground, state: .background, budgetMs: 5000)
        let environment = SubscribeDelegate.environment(
            for: params, appID: "com.x", socketPath: "/s", markSocket: "/m", protectedDataAvailable: available)
        #expect(environment["LIFEBUS_PROTECTED_DATA"] == word)
    }
}
