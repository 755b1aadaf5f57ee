import LifebusLifecycle

/// How a ringing call shows (`DeviceConfiguration.callPresentation`; `Protocol/lifecycle.md`, "Calls as a banner",
/// C01–C04): the compact banner exists from `ios15` here (iOS 14+) and only on an unlocked device.
extension Device {
    /// Whether the call the running event rings shows as a compact banner. `seeded` draws it from the scene-order
    /// seed and the event's id (SplitMix64): the same seed and events, the same presentations.
    func ringsAsBanner() -> Bool {
        guard configuration.profile.hasCompactCallBanner, !locked else { return false }
        switch configuration.callPresentation {
        case .fullScreen: return false
        case .banner: return true
        case .seeded:
            var generator = SplitMix64(
                seed: configuration.sceneOrderSeed ^ 0xCA11_CA11_0000_0000 ^ (activity.cause?.rawValue ?? 0))
            return generator.next() & 1 == 0
        }
    }
}
