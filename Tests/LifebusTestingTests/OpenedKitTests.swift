import LifebusTesting
import Testing

/// The kit with what a launch opens a running app with (`Protocol/lifecycle.md` B36, B37): an app that does not use
/// scenes is sent `open(_:url:)` once back in front, and a tap reaches `didReceiveNotificationResponse`;
/// `expect(_:callbacks:)` sees both callbacks.
@Suite(.hangGuard)
@MainActor
struct OpenedKitTests {
    /// Marks what it is opened with: `opened` from `open(_:url:)`, `tapped` from a notification response.
    final class Links: ApplicationDelegate {
        func open(_ application: Application, url: String) async {
            try? await application.mark("opened", data: ["url": .string(url)])
        }

        func didReceiveNotificationResponse(_ application: Application, payload: String) async {
            try? await application.mark("tapped")
        }
    }

    @Test func aDeepLinkReachesOpenAndATapTheRunningApp() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let app = try await bus.launch("com.example.Links", delegate: Links())
        try await bus.fire(.home)
        try await bus.fire(.launch("com.example.Links", url: "notes://7"))
        try await bus.expect(app, callbacks: [
            .willResignActive, .didEnterBackground, .willEnterForeground, .didBecomeActive, .openURL,
        ])
        try await bus.expect(app, mark: "opened")
        try await bus.fire(.push("com.example.Links", PushNotification(contentAvailable: false, alert: true,
                                                                     tapped: true)))
        try await bus.expect(app, callbacks: [.didReceiveNotificationResponse])
        try await bus.expect(app, mark: "tapped")
        await bus.shutdown()
    }
}
