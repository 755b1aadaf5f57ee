extension JSONParseError {
    /// Where `offset` lies in `text`, the bytes that were parsed, as people count: line and column from 1, the
    /// column in characters (UTF-8 continuation bytes are not counted). An offset past the end counts to the end.
    public func position(in text: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in text.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
