import NavigationHistory

/// navlog's one JSON encoding: every `--format json` output is an `Encodable` value written here,
/// as one line, its first member `"format":` ``format``.
///
/// Foundation's `JSONEncoder` is not used: on Linux its members come out in an order that changes
/// from run to run unless sorted, it leaves out a nil member, and it holds the whole output in
/// memory. Here, instead:
/// - members come in the order the value encodes them: for a synthesized conformance, the order
///   its properties are declared in (`format` first), so the same answer is the same bytes;
/// - a nil member is written `null`, never left out (a type that means to leave one out says so
///   in its own `encode(to:)`);
/// - numbers are exact: integers, and rates as percentages written from integer basis points
///   (``Percent``); a floating-point value is refused, so that every output compares exactly
///   with the SQL in `Tools/sql`;
/// - member names are snake_case (`last_seq`, `rate_pct`): the outputs' types name theirs so;
/// - strings are escaped as the store escapes them (C0 controls, `"` and `\`; `/` and non-ASCII
///   as they are);
/// - a ``JSONFragment`` is written by the library's own writer, so a shape the library owns (the
///   state, a session, a change) is written in one place;
/// - the bytes go to standard output every 64 KiB, so a long replay takes bounded memory.
///
/// The encoder writes as it is called: a container is open until its value's `encode(to:)`
/// returns or its parent writes its next member. Using a container after that is a programmer
/// error and traps.
enum JSONOutput {
    /// The version of every output's shape, its first member: 2 since members are snake_case and
    /// rates `_pct` percentages (1 had camelCase members and rates in `_bp` basis points).
    static let format = 2

    /// Writes `value` and a newline to `out`.
    static func write(_ value: some Encodable, to out: inout StandardOutput) throws {
        let sink = Sink(out: out)
        try sink.value(value, depth: 0)
        sink.writer.raw("\n")
        sink.drain()
        out = sink.out
    }
}

/// JSON that the library writes itself: an `Encodable` value only ``JSONOutput`` can encode.
struct JSONFragment: Encodable {
    let write: (inout JSONWriter) -> Void

    /// A value `write` writes.
    init(_ write: @escaping (inout JSONWriter) -> Void) { self.write = write }

    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "a JSONFragment is written by JSONOutput only"))
    }
}

/// A member named at run time: a column of a table, a scene of a state.
struct AnyKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.init(stringValue) }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// Where the encoding goes, and the containers open, innermost last.
private final class Sink {
    var writer = JSONWriter(capacity: 1 << 16)
    var out: StandardOutput
    /// Whether each open container is an object (else an array), and whether it has an element yet.
    private var open: [(object: Bool, empty: Bool)] = []

    init(out: StandardOutput) { self.out = out }

    /// Hands what is written to standard output.
    func drain() {
        out.write(writer.bytes)
        writer.bytes.removeAll(keepingCapacity: true)
    }

    /// Writes `value` where the container at `depth` is: first closes what values before it left open.
    func value(_ value: some Encodable, depth: Int) throws {
        close(above: depth)
        switch value {
        case let fragment as JSONFragment: fragment.write(&writer)
        case let text as String: writer.string(text)
        case let number as Int: writer.integer(number)
        default:
            try value.encode(to: ValueEncoder(sink: self, depth: depth))
            close(above: depth)
        }
        if writer.bytes.count >= 1 << 16 { drain() }
    }

    /// Writes a number or literal as it is.
    func scalar(_ text: String, depth: Int) {
        close(above: depth)
        writer.raw(text)
    }

    func opening(object: Bool, depth: Int) -> Int {
        close(above: depth)
        writer.raw(object ? "{" : "[")
        open.append((object, true))
        return open.count
    }

    /// Starts the next element of the container at `depth` (its key, for an object).
    func element(at depth: Int, key: String? = nil) {
        precondition(open.count >= depth, "a JSON container was used after it was closed")
        close(above: depth)
        if !open[depth - 1].empty { writer.raw(",") }
        open[depth - 1].empty = false
        if let key { writer.key(named: key, first: true) }
    }

    private func close(above depth: Int) {
        while open.count > depth { writer.raw(open.removeLast().object ? "}" : "]") }
    }
}

private struct ValueEncoder: Encoder {
    let sink: Sink, depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Members(sink: sink, depth: sink.opening(object: true, depth: depth)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Elements(sink: sink, depth: sink.opening(object: false, depth: depth)) }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(sink: sink, depth: depth) }
}

/// Exact numbers only: see ``JSONOutput``.
private func refuse(_ value: Any) -> EncodingError {
    .invalidValue(value, .init(codingPath: [], debugDescription: "navlog's JSON holds exact integers only"))
}

private struct Members<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: Sink, depth: Int
    var codingPath: [any CodingKey] { [] }

    private func scalar(_ text: String, _ key: Key) { sink.element(at: depth, key: key.stringValue); sink.writer.raw(text) }
    mutating func encodeNil(forKey key: Key) { scalar("null", key) }
    mutating func encode(_ value: Bool, forKey key: Key) { scalar(value ? "true" : "false", key) }
    mutating func encode(_ value: String, forKey key: Key) { sink.element(at: depth, key: key.stringValue); sink.writer.string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { throw refuse(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw refuse(value) }
    mutating func encode(_ value: Int, forKey key: Key) { scalar(String(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { scalar(String(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { scalar(String(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { scalar(String(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { scalar(String(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) { scalar(String(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { scalar(String(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { scalar(String(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { scalar(String(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { scalar(String(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        sink.element(at: depth, key: key.stringValue)
        try sink.value(value, depth: depth)
    }

    // A nil member is written null, never left out.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try present(value, key) }
    private mutating func present<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        sink.element(at: depth, key: key.stringValue)
        return KeyedEncodingContainer(Members<NestedKey>(sink: sink, depth: sink.opening(object: true, depth: depth)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        sink.element(at: depth, key: key.stringValue)
        return Elements(sink: sink, depth: sink.opening(object: false, depth: depth))
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("navlog's JSON types have no superclass to encode") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("navlog's JSON types have no superclass to encode") }
}

private struct Elements: UnkeyedEncodingContainer {
    let sink: Sink, depth: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(sink: Sink, depth: Int) { (self.sink, self.depth) = (sink, depth) }

    private mutating func scalar(_ text: String) { sink.element(at: depth); sink.writer.raw(text); count += 1 }
    mutating func encodeNil() { scalar("null") }
    mutating func encode(_ value: Bool) { scalar(value ? "true" : "false") }
    mutating func encode(_ value: String) { sink.element(at: depth); sink.writer.string(value); count += 1 }
    mutating func encode(_ value: Double) throws { throw refuse(value) }
    mutating func encode(_ value: Float) throws { throw refuse(value) }
    mutating func encode(_ value: Int) { scalar(String(value)) }
    mutating func encode(_ value: Int8) { scalar(String(value)) }
    mutating func encode(_ value: Int16) { scalar(String(value)) }
    mutating func encode(_ value: Int32) { scalar(String(value)) }
    mutating func encode(_ value: Int64) { scalar(String(value)) }
    mutating func encode(_ value: UInt) { scalar(String(value)) }
    mutating func encode(_ value: UInt8) { scalar(String(value)) }
    mutating func encode(_ value: UInt16) { scalar(String(value)) }
    mutating func encode(_ value: UInt32) { scalar(String(value)) }
    mutating func encode(_ value: UInt64) { scalar(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        sink.element(at: depth)
        try sink.value(value, depth: depth)
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        sink.element(at: depth)
        count += 1
        return KeyedEncodingContainer(Members<NestedKey>(sink: sink, depth: sink.opening(object: true, depth: depth)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.element(at: depth)
        count += 1
        return Elements(sink: sink, depth: sink.opening(object: false, depth: depth))
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("navlog's JSON types have no superclass to encode") }
}

private struct Single: SingleValueEncodingContainer {
    let sink: Sink, depth: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() { sink.scalar("null", depth: depth) }
    mutating func encode(_ value: Bool) { sink.scalar(value ? "true" : "false", depth: depth) }
    mutating func encode(_ value: String) throws { try sink.value(value, depth: depth) }
    mutating func encode(_ value: Double) throws { throw refuse(value) }
    mutating func encode(_ value: Float) throws { throw refuse(value) }
    mutating func encode(_ value: Int) { sink.scalar(String(value), depth: depth) }
    mutating func encode(_ value: Int8) { sink.scalar(String(value), depth: depth) }
    mutating func encode(_ value: Int16) { sink.scalar(String(value), depth: depth) }
    mutating func encode(_ value: Int32) { sink.scalar(String(value), depth: depth) }
    mutating func encode(_ value: Int64) { sink.scalar(String(value), depth: depth) }
    mutating func encode(_ value: UInt) { sink.scalar(String(value), depth: depth) }
    mutating func encode(_ value: UInt8) { sink.scalar(String(value), depth: depth) }
    mutating func encode(_ value: UInt16) { sink.scalar(String(value), depth: depth) }
    mutating func encode(_ value: UInt32) { sink.scalar(String(value), depth: depth) }
    mutating func encode(_ value: UInt64) { sink.scalar(String(value), depth: depth) }
    mutating func encode<T: Encodable>(_ value: T) throws { try sink.value(value, depth: depth) }
}
