/// The methods the broker serves, one case each, the ones called most first: what `MethodPolicy` gives roles to and
/// what the broker's decoder gives back as constants (`BrokerDecoding`). `name` is the wire name (`LifebusMethod`'s
/// constant); a name is found by its bytes, a word at a time, not compared with every served name in turn.
public enum ServedMethod: Sendable, CaseIterable {
    case ping
    case mark
    case reportMemory
    case fire
    case wait
    case status
    case history
    case beginBackgroundTask
    case endBackgroundTask
    case hello
    case reset
    case advance
    case clock
    case install
    case uninstall
    case apps
    case saveRestorationState
    case registerBackgroundTask
    case submitBackgroundTask
    case setTaskCompleted
    case protectedData

    /// The method's name on the wire.
    public var name: String {
        switch self {
        case .ping: LifebusMethod.ping
        case .mark: LifebusMethod.mark
        case .reportMemory: LifebusMethod.reportMemory
        case .fire: LifebusMethod.fire
        case .wait: LifebusMethod.wait
        case .status: LifebusMethod.status
        case .history: LifebusMethod.history
        case .beginBackgroundTask: LifebusMethod.beginBackgroundTask
        case .endBackgroundTask: LifebusMethod.endBackgroundTask
        case .hello: LifebusMethod.hello
        case .reset: LifebusMethod.reset
        case .advance: LifebusMethod.advance
        case .clock: LifebusMethod.clock
        case .install: LifebusMethod.install
        case .uninstall: LifebusMethod.uninstall
        case .apps: LifebusMethod.apps
        case .saveRestorationState: LifebusMethod.saveRestorationState
        case .registerBackgroundTask: LifebusMethod.registerBackgroundTask
        case .submitBackgroundTask: LifebusMethod.submitBackgroundTask
        case .setTaskCompleted: LifebusMethod.setTaskCompleted
        case .protectedData: LifebusMethod.protectedData
        }
    }

    /// The served method called `name`; `nil` for any other name. Once per request (the broker's routing): a name
    /// the decoder gave is the method's constant, which `==` finds equal at once (the same bits), so the methods
    /// called most, `fire` and `ping`, are compared first; any other name is found by its bytes
    /// (`init(spelledBy:)`).
    public init?(named name: String) {
        if name == LifebusMethod.fire {
            self = .fire
        } else if name == LifebusMethod.ping {
            self = .ping
        } else {
            var name = name  // a short name's bytes are copied out of the value: no allocation
            guard let method = name.withUTF8({ Self.spelled(by: UnsafeRawBufferPointer($0)) }) else { return nil }
            self = method
        }
    }

    /// The served method whose name `bytes` spell; `nil` for any other name: the decoder's look-up, without making
    /// (and validating) a `String`. By length, then against each name of that length (`MethodPolicyTests` checks
    /// every case is found by its name, and no near miss), the names compared a word at a time.
    public init?(spelledBy bytes: UnsafeRawBufferPointer) {
        guard let method = Self.spelled(by: bytes) else { return nil }
        self = method
    }

    private static func spelled(by bytes: UnsafeRawBufferPointer) -> ServedMethod? {
        switch bytes.count {
        case 4:
            if spelled(bytes, "ping") { return .ping }
            if spelled(bytes, "fire") { return .fire }
            if spelled(bytes, "mark") { return .mark }
            if spelled(bytes, "wait") { return .wait }
            if spelled(bytes, "apps") { return .apps }
        case 5:
            if spelled(bytes, "hello") { return .hello }
            if spelled(bytes, "reset") { return .reset }
            if spelled(bytes, "clock") { return .clock }
        case 6:
            if spelled(bytes, "status") { return .status }
        case 7:
            if spelled(bytes, "history") { return .history }
            if spelled(bytes, "advance") { return .advance }
            if spelled(bytes, "install") { return .install }
        case 9:
            if spelled(bytes, "uninstall") { return .uninstall }
        case 12:
            if spelled(bytes, "reportMemory") { return .reportMemory }
        case 13:
            if spelled(bytes, "protectedData") { return .protectedData }
        case 16:
            if spelled(bytes, "setTaskCompleted") { return .setTaskCompleted }
        case 17:
            if spelled(bytes, "endBackgroundTask") { return .endBackgroundTask }
        case 19:
            if spelled(bytes, "beginBackgroundTask") { return .beginBackgroundTask }
        case 20:
            if spelled(bytes, "saveRestorationState") { return .saveRestorationState }
            if spelled(bytes, "submitBackgroundTask") { return .submitBackgroundTask }
        case 22:
            if spelled(bytes, "registerBackgroundTask") { return .registerBackgroundTask }
        default:
            break
        }
        return nil
    }

    /// Whether `bytes` (as long as `name`: the caller's case) are `name`'s: eight bytes at a time, then four, then
    /// one.
    @inline(__always)
    private static func spelled(_ bytes: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        let expected = UnsafeRawPointer(name.utf8Start)
        var offset = 0
        while count &- offset >= 8 {
            guard bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset &+= 8
        }
        if count &- offset >= 4 {
            guard bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                == expected.loadUnaligned(fromByteOffset: offset, as: UInt32.self) else { return false }
            offset &+= 4
        }
        while offset < count {
            guard bytes.load(fromByteOffset: offset, as: UInt8.self)
                == expected.load(fromByteOffset: offset, as: UInt8.self) else { return false }
            offset &+= 1
        }
        return true
    }
}
