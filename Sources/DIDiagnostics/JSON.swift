/// A JSON value with ordered keys, written without Foundation so the output is byte-for-byte stable.
enum JSON {
    case null
    case bool(Bool)
    case number(Int)
    /// A number already written as JSON text (`12.345`).
    case decimal(String)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    func write(into output: inout String, indent: String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += String(value)
        case .decimal(let text): output += text
        case .string(let value): Self.quote(value, into: &output)
        case .array(let values):
            guard !values.isEmpty else { output += "[]"; return }
            if values.allSatisfy({ if case .string = $0 { true } else { false } }) {
                output += "["
                for (index, value) in values.enumerated() {
                    if index > 0 { output += ", " }
                    value.write(into: &output, indent: indent)
                }
                output += "]"
                return
            }
            output += "[\n"
            let inner = indent + "  "
            for (index, value) in values.enumerated() {
                output += inner
                value.write(into: &output, indent: inner)
                output += index == values.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        case .object(let fields):
            guard !fields.isEmpty else { output += "{}"; return }
            output += "{\n"
            let inner = indent + "  "
            for (index, (key, value)) in fields.enumerated() {
                output += inner
                Self.quote(key, into: &output)
                output += ": "
                value.write(into: &output, indent: inner)
                output += index == fields.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        }
    }

    static func quote(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
