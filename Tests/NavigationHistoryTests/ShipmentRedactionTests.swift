import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// `Shipment.redacted(_:salt:)`: a copy of a segment in which no raw id, param value or URL part
/// is left, that still reads as a segment and folds to the raw states up to the redaction.
@Suite struct ShipmentRedactionTests {
    let helpers = EventLogTests()
    static let ids = ["idALPHA1", "idALPHA2", "idALPHA3", "idSHEET4", "idSPLIT5", "idRESTORED6", "idDROPPED7"]
    static let params = ["paramBRAVO1", "paramBRAVO2", "paramBRAVO3"]
    static let urlParts = ["userDELTA", "pwECHO", "slugINDIA", "queryFOXTROT", "fragGOLF", "segCHARLIE", "hostNOVEMBER"]

    /// A log of two sealed segments whose events carry the planted values everywhere a route or
    /// a URL can be, the second starting with a snapshot of a state that holds them, and a restore.
    func plantedLog(in path: String) throws -> EventLog {
        let log = try EventLog(directory: path, options: .init(durability: .none))
        let main = "main"
        let first: [NavigationAction] = [
            .sessionStart(app: "2.1", launch: .cold, meta: nil),
            .sceneOpen(scene: main, kind: nil),
            .tabSelect(scene: main, tab: "home"),
            .push(scene: main, stack: "home", route: Route(screen: "recipe", id: "idALPHA1", params: ["q": "paramBRAVO1"])),
            .deeplink(scene: main, url: "https://userDELTA:pwECHO@example.com/users/profile-slugINDIA?token=queryFOXTROT#fragGOLF",
                      outcome: .resolved, tab: "home", stack: "home",
                      path: [Route(screen: "profile", id: "idALPHA2", params: ["tab": "paramBRAVO2"])]),
            .deeplink(scene: main, url: "recipes://hostNOVEMBER/segCHARLIE42/reviews", outcome: .unmatched, tab: nil, stack: nil, path: nil),
            .sheetPresent(scene: main, sheet: "share", route: Route(screen: "share", id: "idSHEET4"), style: .sheet),
            .push(scene: main, stack: "share", route: Route(screen: "contact", id: "idALPHA3", params: ["via": "paramBRAVO3"])),
            .splitSelect(scene: main, column: .sidebar, route: Route(screen: "category", id: "idSPLIT5")),
        ]
        for action in first { _ = try log.append(action, session: "s1") }
        try log.seal()
        var restored = NavigationState(active: main, scenes: [main: SceneState(tab: "home")])
        restored.scenes[main]?.stacks["home"] = [Route(screen: "recipe", id: "idRESTORED6", params: ["q": "paramBRAVO1"])]
        let second: [NavigationAction] = [
            .sessionStart(app: "2.1", launch: .cold, meta: nil),
            .restore(state: restored, from: 3, dropped: [Route(screen: "recipe", id: "idDROPPED7")]),
            .replace(scene: main, stack: "home", route: Route(screen: "recipe", id: "idALPHA1")),
        ]
        for action in second { _ = try log.append(action, session: "s2") }
        try log.seal()
        _ = try log.append(.sessionEnd(reason: nil), session: "s2")
        try log.seal()
        return log
    }

    /// Where `token` is in `bytes`, byte for byte.
    func holds(_ bytes: [UInt8], _ token: String) -> Bool {
        let needle = Array(token.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test(arguments: [[Redaction.ids], [.params], [.urls], [.ids, .params, .urls]], ["pepper", nil])
    func aRedactedCopyHoldsNoneOfItsRedactedValuesByteForByte(redactions: [Redaction], salt: String?) throws {
        let dir = try ScratchDirectory()
        let log = try plantedLog(in: dir.path + "/log")
        let shipments = try log.pendingShipments().shipments
        #expect(shipments.count == 3)
        let raw = try shipments.flatMap { try $0.contents().bytes }
        for token in Self.ids + Self.params + Self.urlParts where !holds(raw, token) { Issue.record("\(token) is not planted") }
        let copy = try shipments.flatMap { try $0.redacted(Set(redactions), salt: salt).bytes }
        let hidden = Self.urlParts + (redactions.contains(.ids) ? Self.ids : []) + (redactions.contains(.params) ? Self.params : [])
        for token in hidden where holds(copy, token) { Issue.record("\(token) survives redacting \(redactions)") }
        if !redactions.contains(.ids), !holds(copy, "idSPLIT5") { Issue.record("an id is redacted only when asked") }
        if !redactions.contains(.params), !holds(copy, "paramBRAVO3") { Issue.record("a param value is redacted only when asked") }
        try log.close()
    }

    /// The state `state` is expected to be redacted to: each id and param value replaced as the
    /// redactor replaces a value, walked here on its own.
    func expected(_ state: NavigationState, salt: String) -> NavigationState {
        let redactor = Redactor(salt: salt)
        func route(_ route: Route) -> Route {
            Route(screen: route.screen, id: route.id.flatMap(redactor.value), params: route.params?.mapValues { redactor.value($0)! })
        }
        var state = state
        for name in state.scenes.keys {
            state.scenes[name]!.stacks = state.scenes[name]!.stacks.mapValues { $0.map(route) }
            state.scenes[name]!.sheets = state.scenes[name]!.sheets.map { sheet in
                Sheet(id: sheet.id, style: sheet.style, root: route(sheet.root), stack: sheet.stack.map(route))
            }
            if let split = state.scenes[name]!.split {
                state.scenes[name]!.split = SplitState(sidebar: split.sidebar.map(route), content: split.content.map(route),
                                                       visibility: split.visibility)
            }
        }
        return state
    }

    @Test func aRedactedCopyIsASegmentUnderItsNameThatFoldsToTheRawStatesUpToTheRedaction() throws {
        let dir = try ScratchDirectory()
        let log = try plantedLog(in: dir.path + "/log")
        try FileManager.default.createDirectory(atPath: dir.path + "/copy", withIntermediateDirectories: true)
        for shipment in try log.pendingShipments().shipments {
            let copy = try shipment.redacted([.ids, .params], salt: "pepper")
            #expect(copy.sha256 == SHA256.digest(copy.bytes).hex)
            try Data(copy.bytes).write(to: URL(fileURLWithPath: dir.path + "/copy/" + shipment.fileName))
        }
        try log.close()
        let raw = try helpers.readStrictly(dir.path + "/log")
        let redacted = try helpers.readStrictly(dir.path + "/copy")
        // The log goes on in its current segment, which begins with a snapshot and is not shipped.
        #expect(redacted.events.count > 12 && raw.events.dropFirst(redacted.events.count).allSatisfy(\.isSnapshot))
        var rawState = NavigationState(), redactedState = NavigationState()
        for (before, after) in zip(raw.events, redacted.events) {
            #expect(after.seq == before.seq && after.timestamp == before.timestamp && after.session == before.session && after.type == before.type)
            #expect(Projection.fold(&rawState, before) == nil && Projection.fold(&redactedState, after) == nil)
            #expect(redactedState == expected(rawState, salt: "pepper"), "after seq \(before.seq)")
        }
        #expect(redacted.state.scenes["main"]?.stacks["home"]?.first?.id == Redactor(salt: "pepper").value("idALPHA1"))
    }

    @Test(arguments: [[Redaction.ids], [.params], [.urls], [.ids, .params, .urls]], ["pepper", nil])
    func splicingALineWritesTheBytesDecodingAndEncodingItWould(redactions: [Redaction], salt: String?) throws {
        let dir = try ScratchDirectory()
        var generator = LogGenerator(seed: 17)
        try generator.writeLog(to: dir.path + "/log", events: 6_000, segmentSize: 200_000)
        _ = try plantedLog(in: dir.path + "/planted").close()
        for path in [dir.path + "/log", dir.path + "/planted"] {
            let log = try EventLog(directory: path, options: .init(durability: .none))
            for shipment in try log.pendingShipments().shipments {
                let source = try shipment.contents().bytes
                var slow = EventRedactor(Set(redactions), salt: salt), fast = slow
                let decoded = try SegmentTranscoder.transcode(source, splicing: false, values: slow.splicedValues,
                                                              replace: { slow.splicedReplacement($0, $1) }, { slow.redact($0) })
                var decodedLines = 0
                let quick = try SegmentTranscoder.transcode(source, values: fast.splicedValues, replace: { fast.splicedReplacement($0, $1) }) {
                    decodedLines += 1
                    return fast.redact($0)
                }
                #expect(quick == decoded, "\(shipment.fileName) of \(path)")
                // Without a salt an id is dropped, which only decoding and encoding write.
                if salt != nil || !redactions.contains(.ids) { #expect(decodedLines == 0, "\(decodedLines) lines decoded") }
            }
            try log.close()
        }
    }

    @Test func withNothingToRedactTheCopyIsTheSegmentByteForByte() throws {
        let dir = try ScratchDirectory()
        let log = try plantedLog(in: dir.path + "/log")
        for shipment in try log.pendingShipments().shipments {
            #expect(try shipment.redacted([], salt: nil) == shipment.contents())
        }
        try log.close()
    }

    @Test func withoutASaltIdsAreDroppedAndValuesAndURLPartsBecomeStars() throws {
        let dir = try ScratchDirectory()
        let log = try plantedLog(in: dir.path + "/log")
        let first = try log.pendingShipments().shipments[0].redacted([.ids, .params], salt: nil)
        try log.close()
        let events = try String(decoding: first.bytes, as: UTF8.self).split(separator: "\n").map { line in
            try LineDecoder.decode(bytes: Array(line.utf8)[...]).event
        }
        let pushed = events.compactMap { event -> Route? in if case .push(_, _, let route) = event.action { route } else { nil } }
        #expect(pushed == [Route(screen: "recipe", params: ["q": "*"]), Route(screen: "contact", params: ["via": "*"])])
        let urls = events.compactMap { event -> String? in if case .deeplink(_, let url, _, _, _, _) = event.action { url } else { nil } }
        #expect(urls == ["https://example.com/*/*", "recipes://*/:id/*"], "a segment holding a digit keeps the pattern's :id")
    }

    @Test func aSegmentDamagedSinceItWasListedIsRefusedNamingItsLine() throws {
        let dir = try ScratchDirectory()
        let log = try plantedLog(in: dir.path + "/log")
        let shipment = try log.pendingShipments().shipments[0]
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: shipment.path)))
        let thirdLine = bytes.indices.filter { bytes[$0] == 0x0A }[1] + 1
        bytes[thirdLine + 20] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: shipment.path))
        #expect {
            try shipment.redacted([.ids], salt: "pepper")
        } throws: { error in
            guard let error = error as? NavigationHistoryError else { return false }
            return error.code == .corruptLog && error.defect?.line == 3 && error.path == shipment.path
        }
        try log.close()
    }

    @Test func aLineThatWouldOutgrowTheLimitRedactedIsRefusedNotCut() throws {
        let dir = try ScratchDirectory()
        let log = try EventLog(directory: dir.path + "/log", options: .init(durability: .none))
        _ = try log.append(.sessionStart(app: nil, launch: .cold, meta: nil), session: "s")
        _ = try log.append(.sceneOpen(scene: "main", kind: nil), session: "s")
        // A state of short ids close to the line limit: each id's hash is 17 bytes longer.
        _ = try log.append(contentsOf: (0..<2_400).map { k in
            EventDraft(action: .push(scene: "main", stack: "s", route: Route(screen: "s", id: String(k % 10))), session: "s")
        })
        try log.seal()
        _ = try log.append(.sessionEnd(reason: nil), session: "s")
        try log.seal()
        let withSnapshot = try log.pendingShipments().shipments[1]
        #expect(throws: Never.self, "dropped ids make it shorter") { try withSnapshot.redacted([.ids], salt: nil) }
        #expect {
            try withSnapshot.redacted([.ids], salt: "pepper")
        } throws: { error in
            guard let error = error as? NavigationHistoryError else { return false }
            return error.code == .invalidEvent && error.message.contains("line 1 ")
        }
        try log.close()
    }
}
