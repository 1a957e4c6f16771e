import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

/// `navlog ship --redact` on the built binary, over generated logs: the redacted copies verify,
/// hold none of the raw ids, param values or URL parts, and answer every analytics query as the
/// raw segments do up to the redaction.
@Suite final class ShipRedactionCLITests {
    let scratch: ScratchDirectory
    var dir: String { scratch.path }

    init() throws { scratch = try ScratchDirectory() }

    func run(_ arguments: String...) throws -> NavlogRun {
        let run = try NavlogRun(arguments, stdin: nil)
        #expect(run.status == 0, "\(arguments.joined(separator: " ")): \(run.stderr)")
        return run
    }

    /// Every id, param value and deep-link URL part of the log at `path`, read as events, but
    /// those that are also a screen's name, which is kept.
    func rawValues(_ path: String) throws -> Set<String> {
        var values = Set<String>(), screens = Set<String>()
        func add(_ route: Route) {
            screens.insert(route.screen)
            if let id = route.id { values.insert(id) }
            for value in route.params?.values ?? [:].values { values.insert(value) }
        }
        _ = try LogReader(path: path, mode: .absolute).read { event in
            switch event.action {
            case .push(_, _, let route), .replace(_, _, let route), .sheetPresent(_, _, let route, _): add(route)
            case .setPath(_, _, let path, _): path.forEach(add)
            case .splitSelect(_, _, let route): route.map(add)
            case .deeplink(_, let url, _, _, _, let path):
                path?.forEach(add)
                let afterScheme = url.split(separator: "://", maxSplits: 1).last ?? ""
                for part in afterScheme.split(whereSeparator: { "/?#&=".contains($0) }) { values.insert(String(part)) }
            case .snapshot(let state), .restore(let state, _, _):
                for scene in state.scenes.values {
                    scene.stacks.values.joined().forEach(add)
                    for sheet in scene.sheets { add(sheet.root); sheet.stack.forEach(add) }
                }
            default: break
            }
        }
        return values.subtracting(screens)
    }

    @Test(arguments: [5, 23])
    func aRedactedShipmentVerifiesHidesEveryRawValueAndAnswersAsTheRawOne(seed: Int) throws {
        let log = dir + "/log", twin = dir + "/twin"
        _ = try run("generate", "--events", "4000", "--seed", String(seed), "--segment-size", "60000", "-o", log)
        try FileManager.default.copyItem(atPath: log, toPath: twin)
        _ = try run("ship", log, "--to", dir + "/out", "--device", "raw", "--seal")
        let shipped = try run("ship", twin, "--to", dir + "/out", "--device", "red", "--seal", "--redact", "ids", "--redact", "params",
                              "--redact", "urls", "--salt", "pepper", "--format", "json")
        #expect(shipped.stdout.contains(#""redactions":["ids","params","urls"]"#), "\(shipped.stdout)")
        let raw = dir + "/out/raw", red = dir + "/out/red"
        #expect(try FileManager.default.contentsOfDirectory(atPath: red).sorted() == FileManager.default.contentsOfDirectory(atPath: raw).sorted())
        _ = try run("verify", red, "--mode", "absolute")

        // Byte for byte: a raw value is never a whole JSON string of the copy, and one with a
        // letter no hash is made of (hex digits, or letters a to p) appears nowhere at all.
        let values = try rawValues(raw).filter { $0.count >= 3 }
        #expect(values.count > 50)
        let copy = try FileManager.default.contentsOfDirectory(atPath: red).map { try String(contentsOfFile: red + "/" + $0, encoding: .utf8) }
            .joined()
        for value in values where copy.contains("\"\(value)\"") { Issue.record("\"\(value)\" survives in the redacted copy") }
        for value in values where value.contains(where: { !("0"..."9").contains($0) && !("a"..."p").contains($0) }) && copy.contains(value) {
            Issue.record("\(value) survives in the redacted copy")
        }

        // Up to the redaction: screen views with ids hashed as `export --redact ids` hashes them;
        // everything of screens, paths and funnels exactly.
        #expect(try run("export", raw, "--table", "screen_views", "--redact", "ids", "--salt", "pepper").stdout
                == run("export", red, "--table", "screen_views").stdout)
        for table in ["transitions", "sessions"] {
            #expect(try run("export", raw, "--table", table).stdout == run("export", red, "--table", table).stdout, "\(table)")
        }
        for query in [["screens"], ["paths"], ["transitions"], ["exits"], ["bounces"], ["tabs"], ["depth"],
                      ["funnel", "--steps", "home,category,recipe"], ["sessions"]] {
            let arguments = [query[0], raw] + query.dropFirst() + ["--format", "json"]
            let (before, after) = (try NavlogRun(arguments, stdin: nil).stdout, try NavlogRun([query[0], red] + query.dropFirst() + ["--format", "json"], stdin: nil).stdout)
            #expect(before == after && !before.isEmpty, "\(query.joined(separator: " "))")
        }
        // Deep links group by the same patterns: the same counts per group, the names hashed.
        func groups(_ path: String) throws -> [String] {
            let rows = try JSONSerialization.jsonObject(with: Data(run("deeplinks", path, "--format", "json").stdout.utf8)) as! [String: Any]
            return (rows["rows"] as! [[String: Any]]).map { "\($0["outcome"]!) \($0["links"]!) \($0["backed_out"]!)" }.sorted()
        }
        let rawGroups = try groups(raw)
        let redGroups = try groups(red)
        #expect(rawGroups.count > 2 && rawGroups == redGroups)
    }

    @Test func aSaltWithoutRedactionIsAUsageErrorAndASecondRedactedShipShipsNothingNew() throws {
        let log = dir + "/log"
        _ = try run("generate", "--events", "2000", "--seed", "3", "--segment-size", "60000", "-o", log)
        let refused = try NavlogRun(["ship", log, "--to", dir + "/out", "--device", "d", "--salt", "pepper"], stdin: nil)
        #expect(refused.status == 64 && refused.stderr.contains("--salt salts the hashes of --redact"), "\(refused.stderr)")
        let first = try run("ship", log, "--to", dir + "/out", "--device", "d", "--redact", "ids", "--salt", "pepper")
        #expect(first.stdout.contains("redacted (ids)"), "\(first.stdout)")
        let again = try run("ship", log, "--to", dir + "/out", "--device", "d", "--redact", "ids", "--salt", "pepper")
        #expect(again.stdout.contains("nothing new to ship"), "\(again.stdout)")
    }
}
