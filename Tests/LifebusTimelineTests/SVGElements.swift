/// The elements of a rendered SVG document as the layout tests read them back: each element's name, attributes and
/// (for `<text>`) the text it shows, without its hover `<title>` and with XML's five entities decoded.
struct SVGElement {
    var name: String
    var attributes: [String: String]
    var text: String

    func number(_ key: String) -> Double? {
        attributes[key].flatMap(Double.init)
    }

    /// Every element of `document` named `name` (`text`, `rect`, `line`, `path`).
    static func all(_ name: String, in document: String) -> [SVGElement] {
        document.split(separator: "<\(name) ", omittingEmptySubsequences: false).dropFirst().map { chunk in
            let head = chunk.prefix { $0 != ">" }
            var attributes: [String: String] = [:]
            var rest = Substring(head)
            while let equals = rest.firstRange(of: "=\"") {
                let key = rest[..<equals.lowerBound].trimmingSpaces
                let afterQuote = rest[equals.upperBound...]
                let value = afterQuote.prefix { $0 != "\"" }
                attributes[String(key)] = decode(String(value))
                rest = afterQuote.dropFirst(value.count + 1)
            }
            var text = ""
            if name == "text", let close = chunk.firstRange(of: "</text>") {
                var body = String(chunk[chunk.index(after: head.endIndex)..<close.lowerBound])
                if let titleEnd = body.firstRange(of: "</title>") { body = String(body[titleEnd.upperBound...]) }
                text = decode(body)
            }
            return SVGElement(name: name, attributes: attributes, text: text)
        }
    }

    private static func decode(_ text: String) -> String {
        text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: Substring {
        Substring(self).drop { $0 == " " || $0 == "\n" }
    }
}
