import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// `FireParams.controllerEvent`: every event and action `fire` takes becomes the device's event, defaults applied.
@Suite struct FireEventMappingTests {
    static let cases: [(wire: JSONValue, event: ControllerEvent)] = [
        (["event": "call"], .call(.ring)),
        (["event": "call", "action": "answer"], .call(.answer)),
        (["event": "call", "action": "decline"], .call(.decline)),
        (["event": "call", "action": "end"], .call(.end)),
        (["event": "sms"], .sms(.show)),
        (["event": "sms", "action": "banner"], .sms(.banner)),
        (["event": "sms", "action": "reply"], .sms(.open)),
        (["event": "sms", "action": "dismiss"], .sms(.dismiss)),
        (["event": "calendar"], .calendar(.show)),
        (["event": "calendar", "action": "view"], .calendar(.open)),
        (["event": "calendar", "action": "dismiss"], .calendar(.dismiss)),
        (["event": "sleep"], .sleep),
        (["event": "wake"], .wake),
        (["event": "home"], .home),
        (["event": "launch", "app": "com.example.a"], .launch("com.example.a")),
        (["event": "activate", "app": "com.example.a"], .activate("com.example.a")),
        (["event": "memory-warning"], .memoryWarning(.warning)),
        (["event": "memory-warning", "level": "critical"], .memoryWarning(.critical)),
        (["event": "terminate", "app": "com.example.a"], .terminate("com.example.a", byUser: false)),
        (["event": "terminate", "app": "com.example.a", "byUser": true], .terminate("com.example.a", byUser: true)),
    ]

    @Test("every event and action of the wire maps to the device's event", arguments: cases)
    func mapsToTheDevicesEvent(wire: JSONValue, event: ControllerEvent) throws {
        #expect(try FireParams(json: wire).controllerEvent == event)
    }
}
