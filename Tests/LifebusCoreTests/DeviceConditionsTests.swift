import LifebusCore
import LifebusLifecycle
import Testing

/// The device's conditions as values (`Device+Conditions.swift`): they start as the configuration says, each event
/// changes its own and is answered at once when no task waits or runs, and `reset` gives back the start.
@Suite struct DeviceConditionsTests {
    @Test func theyStartAsConfiguredChangeByEventAndResetGivesBackTheStart() {
        var device = Device(configuration: DeviceConfiguration(
            profile: .ios13, conditions: DeviceConditions(power: .battery, network: .online)))
        #expect(device.deviceConditions == DeviceConditions(power: .battery, network: .online))
        let power = device.handle(.fire(EventID(1), .power(.external)), at: .zero)
        let network = device.handle(.fire(EventID(2), .network(.offline)), at: .zero)
        #expect(device.deviceConditions == DeviceConditions(power: .external, network: .offline))
        #expect(power.contains(.completeEvent(EventID(1))) && network.contains(.completeEvent(EventID(2))),
                "\(power) \(network)")
        _ = device.handle(.fire(EventID(3), .reset), at: .zero)
        #expect(device.deviceConditions == DeviceConditions(power: .battery, network: .online))
    }
}
