/// Builds SVG text: elements with attributes, text content escaped for XML. Owns the text written so far.
///
/// A plain value. Invariant: every attribute value and text node written goes through `XMLText.escape`, so app ids
/// and event labels cannot break the document.
struct SVGWriter {
    private(set) var text = ""

    /// A self-closing element: `<name a="v" …/>`.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, SVGValue>) {
        open(name, attributes)
        text += "/>\n"
    }

    /// An element holding text: `<name …>content</name>`, with an optional hover title.
    mutating func element(
        _ name: String, _ attributes: KeyValuePairs<String, SVGValue>, text content: String, title: String? = nil
    ) {
        open(name, attributes)
        text += ">"
        if let title { text += "<title>\(XMLText.escape(title))</title>" }
        text += XMLText.escape(content)
        text += "</\(name)>\n"
    }

    /// Opens an element that will hold others; close it with `end(name)`.
    mutating func start(_ name: String, _ attributes: KeyValuePairs<String, SVGValue>) {
        open(name, attributes)
        text += ">\n"
    }

    /// Opens a group (`<g …>`) with an optional hover title; close it with `end("g")`.
    mutating func group(_ attributes: KeyValuePairs<String, SVGValue>, title: String? = nil) {
        open("g", attributes)
        text += ">"
        if let title { text += "<title>\(XMLText.escape(title))</title>" }
        text += "\n"
    }

    mutating func end(_ name: String) {
        text += "</\(name)>\n"
    }

    mutating func raw(_ markup: String) {
        text += markup
    }

    private mutating func open(_ name: String, _ attributes: KeyValuePairs<String, SVGValue>) {
        text += "<\(name)"
        for (key, value) in attributes {
            text += " \(key)=\"\(XMLText.escape(value.text))\""
        }
    }

}

/// An attribute value: a number (written with at most one decimal) or text.
enum SVGValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    case number(Double)
    case string(String)

    init(stringLiteral value: String) { self = .string(value) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }

    var text: String {
        switch self {
        case .string(let value):
            return value
        case .number(let value):
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
        }
    }
}
