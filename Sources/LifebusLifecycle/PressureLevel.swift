/// How full the device's memory is, as the broker measures it from its apps' resident memory (`status`'s
/// `pressure`, the supervisor's policy). Ordered: `normal < warning < critical`.
public enum PressureLevel: String, Sendable, Hashable, Comparable, CaseIterable {
    case normal, warning, critical

    public static func < (lhs: PressureLevel, rhs: PressureLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
