// The hand-written baseline: what an app would write with Foundation's JSONDecoder and Codable
// structs that model an event of format v1 (see shared design "event-format.md").
//
// Every member of every v1 type is modelled; the optional ones are Swift optionals, so the
// synthesized `init(from:)` uses `decodeIfPresent` for them. `state` (snapshot, restore) is decoded
// as a generic JSON tree (`BaselineJSON`), not as a typed navigation state. Unknown members are
// ignored, as JSONDecoder does by default. The baseline does NOT verify `crc`, the `ts` format, or
// the meaning of enumerated strings (`launch`, `outcome`, ...): it decodes them as plain strings.
import Foundation

/// A route: `{"screen": ..., "id": ..., "params": {...}}`.
struct BaselineRoute: Decodable {
    var screen: String
    var id: String?
    var params: [String: String]?
}

/// One log line as Codable: the common members plus every type's members, optional.
struct BaselineEvent: Decodable {
    // Common members.
    var v: Int
    var seq: Int
    var ts: String
    var session: String
    var type: String
    var scene: String?
    var stack: String?
    var crc: String?
    // Type-specific members.
    var route: BaselineRoute?
    var count: Int?
    var path: [BaselineRoute]?
    var cause: String?
    var tab: String?
    var url: String?
    var outcome: String?
    var sheet: String?
    var style: String?
    var column: String?
    var visibility: String?
    var kind: String?
    var app: String?
    var launch: String?
    var meta: [String: String]?
    var reason: String?
    var state: BaselineJSON?
    var from: Int?
    var dropped: [BaselineRoute]?
}

/// Any JSON value: how the baseline decodes `state` (a nested object it does not model).
indirect enum BaselineJSON: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([BaselineJSON])
    case object([String: BaselineJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([BaselineJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: BaselineJSON].self))
        }
    }
}
