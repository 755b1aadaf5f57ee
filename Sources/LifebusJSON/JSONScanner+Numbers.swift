/// Number parsing: JSON grammar checked byte by byte, integers accumulated exactly, doubles computed exactly on
/// the fast path (Clinger: mantissa <= 2^53 and a power of ten <= 10^22) and by the standard library otherwise.
extension JSONScanner {
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Exponents beyond this magnitude are certain to overflow or underflow; accumulation stops there.
    private static let exponentCap = 1_000_000

    @inline(__always)
    private func digit(at position: Int) -> UInt64? {
        guard position < count else { return nil }
        let byte = bytes[position]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        return UInt64(byte - UInt8(ascii: "0"))
    }

    /// Parses a number starting at `index` (a `-` or a digit).
    public mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }

        var mantissa: UInt64 = 0
        var mantissaOverflowed = false
        var fractionDigits = 0

        guard let first = digit(at: index) else { throw fail(.invalidNumber) }
        index += 1
        mantissa = first
        if first == 0 {
            if digit(at: index) != nil { throw fail(.invalidNumber) }
        } else {
            while let next = digit(at: index) {
                if !mantissaOverflowed, !accumulate(&mantissa, next) { mantissaOverflowed = true }
                index += 1
            }
        }

        var isInteger = true
        if index < count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digit(at: index) != nil else { throw fail(.invalidNumber) }
            while let next = digit(at: index) {
                if !mantissaOverflowed {
                    if accumulate(&mantissa, next) { fractionDigits += 1 } else { mantissaOverflowed = true }
                }
                index += 1
            }
        }

        var exponent = 0
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard digit(at: index) != nil else { throw fail(.invalidNumber) }
            while let next = digit(at: index) {
                if exponent < Self.exponentCap { exponent = exponent * 10 + Int(next) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        if isInteger, !mantissaOverflowed {
            if negative {
                if mantissa == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
                if mantissa <= UInt64(Int64.max) { return .integer(-Int64(mantissa)) }
            } else if mantissa <= UInt64(Int64.max) {
                return .integer(Int64(mantissa))
            }
        }

        if !mantissaOverflowed {
            if mantissa == 0 { return .double(negative ? -0.0 : 0.0) }
            let power = exponent - fractionDigits
            if mantissa <= 1 << 53, power >= -22, power <= 22 {
                var value = Double(mantissa)
                value = power < 0 ? value / Self.powersOfTen[-power] : value * Self.powersOfTen[power]
                return .double(negative ? -value : value)
            }
        }
        return try parseDoubleSlowly(from: start)
    }

    @inline(__always)
    private func accumulate(_ mantissa: inout UInt64, _ digit: UInt64) -> Bool {
        let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(digit)
        guard !overflow1, !overflow2 else { return false }
        mantissa = sum
        return true
    }

    /// Hands the validated number text to the standard library's correctly rounded conversion.
    private func parseDoubleSlowly(from start: Int) throws(JSONParseError) -> JSONValue {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw JSONParseError(.invalidNumber, at: start) }
        guard value.isFinite else { throw JSONParseError(.numberNotFinite, at: start) }
        return .double(value)
    }
}
