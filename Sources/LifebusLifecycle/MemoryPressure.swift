/// How hard the device's memory is pressed: what the broker measures from its apps' resident memory (`status`'s
/// `pressure`, the supervisor's policy) and, above `normal`, the level of a memory warning. The raw value is the
/// wire spelling. Ordered: `normal < warning < critical`.
public enum MemoryPressure: String, Sendable, Hashable, Comparable, CaseIterable {
    case normal, warning, critical

    public static func < (lhs: MemoryPressure, rhs: MemoryPressure) -> Bool {
        lhs.rank < rhs.rank
    }

    /// The pressure's place in the order (and in `allCases`).
    private var rank: Int {
        switch self {
        case .normal: 0
        case .warning: 1
        case .critical: 2
        }
    }
}

/// The level of a memory warning (`fire memory-warning --level`, `ControllerEvent.memoryWarning`): a
/// `MemoryPressure` above `normal` — no warning is ever sent at `normal`. Its spellings and order are the
/// pressure's; `allCases` lists only the pressures a warning can have, so `--help`, the schema test and the
/// wire reader offer exactly those.
///
/// Invariant: `pressure != .normal` (every initialiser checks it).
public struct MemoryWarningLevel: RawRepresentable, Sendable, Hashable, Comparable, CaseIterable,
    CustomStringConvertible
{
    public let pressure: MemoryPressure

    /// `nil` for `normal`.
    public init?(_ pressure: MemoryPressure) {
        guard pressure != .normal else { return nil }
        self.pressure = pressure
    }

    public init?(rawValue: String) {
        guard let pressure = MemoryPressure(rawValue: rawValue) else { return nil }
        self.init(pressure)
    }

    public var rawValue: String { pressure.rawValue }
    public var description: String { rawValue }

    public static let warning = MemoryWarningLevel(.warning)!
    public static let critical = MemoryWarningLevel(.critical)!
    public static let allCases: [MemoryWarningLevel] = MemoryPressure.allCases.compactMap(MemoryWarningLevel.init)

    /// The level's place in `allCases` (its field in a packed `fire`), not a search. `init(position:)` is its inverse.
    public var position: Int {
        switch pressure {
        case .normal: preconditionFailure("a memory warning at normal pressure")  // the type's invariant
        case .warning: 0
        case .critical: 1
        }
    }

    /// The level at `position` in `allCases`; `position` must be one of theirs.
    public init(position: Int) {
        self = Self.allCases[position]
    }

    public static func < (lhs: MemoryWarningLevel, rhs: MemoryWarningLevel) -> Bool {
        lhs.pressure < rhs.pressure
    }

    // Written out: a `RawRepresentable` type's `==` and `hash(into:)` would otherwise be the standard library's,
    // which compare and hash the raw value's text (a string compare on every fire, measured with callgrind).
    public static func == (lhs: MemoryWarningLevel, rhs: MemoryWarningLevel) -> Bool {
        lhs.pressure == rhs.pressure
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pressure)
    }
}
