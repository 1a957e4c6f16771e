import Foundation
import Testing
@testable import NavigationHistory

/// The descriptors of ``EventType`` are the format's rules as data: these tests hold them equal to
/// the JSON Schema, and hold the codec, the construction of actions and the session boundaries to
/// them, for every type.
@Suite struct EventVocabularyTests {
    /// One action of each type, with every optional member set where the type has one.
    static func sample(_ type: EventType) -> NavigationAction {
        let route = Route(screen: "recipe", id: "r1", params: ["tab": "reviews"])
        let state = NavigationState(active: "main", scenes: ["main": SceneState(tab: "home", stacks: ["home": [route]])])
        return switch type {
        case .sessionStart: .sessionStart(app: "1.0", launch: .warm, meta: ["os": "17"])
        case .sessionEnd: .sessionEnd(reason: "quit")
        case .sceneOpen: .sceneOpen(scene: "main", kind: "window")
        case .sceneClose: .sceneClose(scene: "main", kind: "window")
        case .sceneActivate: .sceneActivate(scene: "main")
        case .scenePhase: .scenePhase(scene: "main", phase: .background)
        case .tabSelect: .tabSelect(scene: "main", tab: "home")
        case .push: .push(scene: "main", stack: "home", route: route)
        case .pop: .pop(scene: "main", stack: "home", count: 2)
        case .popToRoot: .popToRoot(scene: "main", stack: "home")
        case .replace: .replace(scene: "main", stack: "home", route: route)
        case .setPath: .setPath(scene: "main", stack: "home", path: [route, route], cause: .restore)
        case .deeplink: .deeplink(scene: "main", url: "app://r/1", outcome: .partial, tab: "home", stack: "home", path: [route])
        case .sheetPresent: .sheetPresent(scene: "main", sheet: "s", route: route, style: .popover)
        case .sheetDismiss: .sheetDismiss(scene: "main", sheet: "s")
        case .splitSelect: .splitSelect(scene: "main", column: .content, route: route)
        case .splitVisibility: .splitVisibility(scene: "main", visibility: .detailOnly)
        case .snapshot: .snapshot(state: state)
        case .restore: .restore(state: state, from: 7, dropped: [route])
        }
    }

    static func line(_ action: NavigationAction) -> [UInt8] {
        Array(LineEncoder.encode(NavigationEvent(seq: 3, timestamp: Timestamp(millisecondsSince1970: 1_764_000_000_000),
                                                 session: "s1", action: action)).dropLast())
    }

    /// The members of a line after the common ones, in their order, without `crc`.
    static func ownMembers(_ line: [UInt8]) throws -> [String] {
        let value = try line.withUnsafeBytes { try JSONScanner.parse($0) }
        guard case .object(let members) = value else { return [] }
        return members.map(\.key).filter { !["v", "seq", "ts", "session", "type", "crc"].contains($0) }
    }

    @Test func eachTypeIsMadeAgainOfTheMemberValuesItGives() {
        for type in EventType.allCases {
            let action = Self.sample(type)
            #expect(action.eventType == type)
            var writer = ValuesWriter()
            action.writeMembers(to: &writer)
            #expect(writer.order == type.descriptor.members.map(\.member), "\(type)")
            var reader = EventMemberValues.Reader(writer.values)
            #expect(NavigationAction(type, reading: &reader) == action, "\(type)")
        }
    }

    @Test func eachMembersKeyIsItsNameAsTheEncoderWritesIt() {
        for member in EventMember.allCases {
            #expect(member.key.description == ",\"\(member.name)\":", "\(member)")
        }
    }

    @Test func theEncoderWritesEachTypesMembersInItsDescriptorsOrder() throws {
        for type in EventType.allCases {
            let written = try Self.ownMembers(Self.line(Self.sample(type)))
            #expect(written == type.descriptor.members.map(\.member.name), "\(type)")
        }
        // Optional members left out are not written; the rest keep the order.
        for event in generatedEvents(5000, seed: 9) {
            guard let type = event.action.eventType else { continue }
            let written = try Self.ownMembers(Self.line(event.action))
            let order = type.descriptor.members.map(\.member.name)
            #expect(written == order.filter(written.contains), "\(type)")
            let required = type.descriptor.members.filter { $0.presence != .optional }.map(\.member.name)
            #expect(Set(required).isSubset(of: Set(written)), "\(type)")
        }
    }

    @Test func bothDecodersReadEveryTypeAsTheEncoderWroteIt() throws {
        for type in EventType.allCases {
            let line = Self.line(Self.sample(type))
            // The fast decoder takes every type but the two that carry a state.
            let fast = line.withUnsafeBytes { CanonicalLineDecoder.decode($0) }
            #expect((fast?.action == Self.sample(type)) == (type != .snapshot && type != .restore), "\(type)")
            #expect(try decodeLine(line).event.action == Self.sample(type), "\(type)")
            let general = try line.withUnsafeBytes { buffer in
                try Result { () throws(LineError) in try LineDecoder.decodeAnyLayout(buffer) }.get()
            }
            #expect(general.event.action == Self.sample(type), "\(type)")
        }
    }

    @Test func aLineWithoutARequiredMemberIsRefusedNamingIt() throws {
        for type in EventType.allCases {
            for rule in type.descriptor.members where rule.presence != .optional {
                let value = try Self.line(Self.sample(type)).withUnsafeBytes { try JSONScanner.parse($0) }
                guard case .object(let members) = value else { Issue.record("not an object"); continue }
                var writer = JSONWriter(capacity: 256)
                writer.value(.object(members.filter { $0.key != rule.member.name && $0.key != "crc" }))
                #expect {
                    try decodeLine(writer.bytes)
                } throws: { error in
                    let error = error as! LineError
                    return error.kind == .missingMember && error.detail.contains("'\(type.rawValue)' event has no '\(rule.member.name)'")
                }
            }
        }
    }

    @Test func everyMemberValueIsKeptWhereItsShapeSaysIt() {
        for member in EventMember.allCases {
            var values = EventMemberValues()
            switch member.shape {
            case .common, .stringMap, .route, .state: continue
            case .identifier, .text:
                values[string: member] = "x"
                #expect(values[string: member] == "x", "\(member)")
            case .enumeration:
                #expect(!member.caseNames.isEmpty, "\(member)")
                for name in member.caseNames {
                    values[string: member] = name
                    #expect(values[string: member] == name, "\(member)")
                }
            case .count, .seq:
                values[integer: member] = 5
                #expect(values[integer: member] == 5, "\(member)")
            case .routes:
                values[routes: member] = [Route(screen: "a")]
                #expect(values[routes: member] == [Route(screen: "a")], "\(member)")
            }
        }
    }

    @Test func sessionsBeginAndTheStateIsSetWhereTheDescriptorsSay() {
        for type in EventType.allCases {
            let descriptor = type.descriptor
            let event = NavigationEvent(seq: 1, timestamp: Timestamp(millisecondsSince1970: 0), session: "s", action: Self.sample(type))
            #expect(event.beginsSession(after: "s") == descriptor.beginsSession, "\(type)")
            #expect(event.beginsSession(after: "other") == !descriptor.restatesState, "\(type)")
            #expect(event.setsWholeState == descriptor.setsWholeState, "\(type)")
            #expect((event.action.scene != nil) == (descriptor.scope != .session), "\(type)")
        }
    }

    @Test func anActionNamesAnotherSceneExactlyWhenItsSceneIsAnother() {
        let unknown = NavigationAction.unknown(type: "x.y", members: [JSONMember("scene", .string("main"))])
        for action in EventType.allCases.map(Self.sample) + [unknown, .unknown(type: "x.y", members: [])] {
            for other in [nil, "main", "side", ""] as [String?] {
                #expect(action.namesScene(otherThan: other) == (action.scene != nil && action.scene != other), "\(action), \(String(describing: other))")
            }
        }
    }

    /// The JSON Schema of the format says, for each type, which members it has and which it
    /// requires (through `scoped` and `stackScoped` for `scene` and `stack`), and each
    /// enumeration's cases.
    @Test func theDescriptorsAgreeWithTheJSONSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Schemas/navigation-event.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        func members(of definition: [String: Any]) -> (all: Set<String>, required: Set<String>) {
            var all = Set(((definition["properties"] as? [String: Any]) ?? [:]).keys)
            var required = Set((definition["required"] as? [String]) ?? [])
            if let ref = definition["$ref"] as? String, ref.hasPrefix("#/$defs/"),
               let base = defs[String(ref.dropFirst("#/$defs/".count))] as? [String: Any] {
                let inherited = members(of: base)
                all.formUnion(inherited.all)
                required.formUnion(inherited.required)
            }
            return (all, required)
        }
        let schemaTypes = Set(defs.keys.filter { $0.first!.isLowercase && defs[$0].flatMap { $0 as? [String: Any] }?["description"] != nil })
            .subtracting(["nonEmptyString", "stringMap", "scoped", "stackScoped"])
        #expect(schemaTypes == Set(EventType.allCases.map(\.rawValue)))
        for type in EventType.allCases {
            let definition = try #require(defs[type.rawValue] as? [String: Any], "\(type)")
            let (all, required) = members(of: definition)
            let descriptor = type.descriptor
            #expect(all == Set(descriptor.members.map(\.member.name)), "\(type)")
            #expect(required == Set(descriptor.members.filter { $0.presence != .optional }.map(\.member.name)), "\(type)")
            for rule in descriptor.members where rule.member.shape == .enumeration {
                let property = try #require(((definition["properties"] as? [String: Any])?[rule.member.name]) as? [String: Any])
                var cases = property["enum"] as? [String]
                if cases == nil, let ref = property["$ref"] as? String, let def = defs[String(ref.dropFirst("#/$defs/".count))] as? [String: Any] {
                    cases = def["enum"] as? [String]
                }
                #expect(cases == rule.member.caseNames, "\(type).\(rule.member.name)")
            }
        }
    }
}

/// Gathers what ``NavigationAction/writeMembers(to:)`` hands on, and in which order.
private struct ValuesWriter: EventMemberWriter {
    var values = EventMemberValues()
    var order: [EventMember] = []

    mutating func string(_ member: EventMember, _ value: String) { order.append(member); values[string: member] = value }
    mutating func optionalString(_ member: EventMember, _ value: String?) { order.append(member); values[string: member] = value }
    mutating func enumeration<E: FormatEnumeration>(_ member: EventMember, _ value: E) {
        order.append(member)
        values[string: member] = value.rawValue
    }
    mutating func optionalEnumeration<E: FormatEnumeration>(_ member: EventMember, _ value: E?) {
        order.append(member)
        values[string: member] = value?.rawValue
    }
    mutating func integer(_ member: EventMember, _ value: Int) { order.append(member); values[integer: member] = value }
    mutating func optionalStringMap(_ member: EventMember, _ value: [String: String]?) { order.append(member); values.meta = value }
    mutating func route(_ member: EventMember, _ value: Route) { order.append(member); values.route = value }
    mutating func nullableRoute(_ member: EventMember, _ value: Route?) {
        order.append(member)
        values.route = value
        values.routeIsNull = value == nil
    }
    mutating func routes(_ member: EventMember, _ value: [Route]) { order.append(member); values[routes: member] = value }
    mutating func optionalRoutes(_ member: EventMember, _ value: [Route]?) { order.append(member); values[routes: member] = value }
    mutating func state(_ member: EventMember, _ value: NavigationState) { order.append(member); values.state = value }
}
