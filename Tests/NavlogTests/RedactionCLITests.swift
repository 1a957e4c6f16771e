import Foundation
import Testing
import TestSupport

/// `navlog export --redact` is defined by what it guarantees: no route id (`ids`), param value
/// (`params`), or deep-link URL userinfo, path segment, query or fragment (any choice, as URLs can
/// carry all three) of the log appears in any table or format.
@Suite(.serialized) struct RedactionCLITests {
    static let ids = ["idALPHA1", "idALPHA2", "idALPHA3", "idALPHA4"]
    static let params = ["paramBRAVO1", "paramBRAVO2"]
    static let urlParts = ["userDELTA", "pwECHO", "emailHOTEL", "slugINDIA", "queryFOXTROT", "fragGOLF", "segCHARLIE", "fragMIKE",
                           "emailLIMA", "segJULIET", "queryKILO", "hostNOVEMBER"]

    /// A log whose routes, params and deep links carry the planted identifiers.
    static func writePlantedLog(to path: String) throws {
        let events: [[String: Any]] = [
            ["type": "session.start", "app": "2.1", "launch": "cold"],
            ["type": "scene.open", "scene": "main"],
            ["type": "tab.select", "scene": "main", "tab": "home"],
            ["type": "push", "scene": "main", "stack": "home", "route": ["screen": "recipe", "id": "idALPHA1", "params": ["q": "paramBRAVO1"]]],
            ["type": "deeplink", "scene": "main", "stack": "home", "tab": "home", "outcome": "resolved",
             "url": "https://userDELTA:pwECHO@example.com/users/emailHOTEL@mail.example/profile-slugINDIA?token=queryFOXTROT#fragGOLF",
             "path": [["screen": "profile", "id": "idALPHA2", "params": ["tab": "paramBRAVO2"]]]],
            ["type": "deeplink", "scene": "main", "stack": "home", "tab": "home", "outcome": "partial",
             "url": "recipes://recipe/segCHARLIE42/reviews#fragMIKE", "path": [["screen": "recipe", "id": "idALPHA3"]]],
            ["type": "deeplink", "scene": "main", "url": "mailto:emailLIMA@example.org", "outcome": "unmatched"],
            ["type": "deeplink", "scene": "main", "url": "relative/segJULIET?x=queryKILO", "outcome": "unmatched"],
            ["type": "deeplink", "scene": "main", "url": "recipes://hostNOVEMBER/reviews", "outcome": "unmatched"],
            ["type": "push", "scene": "main", "stack": "home", "route": ["screen": "reviews", "id": "idALPHA4"]],
            ["type": "pop", "scene": "main", "stack": "home", "count": 1],
            ["type": "session.end"],
        ]
        try writeJSONLines(events, session: "s1", apart: .seconds(60), to: path)
    }

    @Test func noPlantedIdentifierSurvivesInAnyTableOrFormat() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/planted.jsonl"
        try Self.writePlantedLog(to: log)
        let tables = ["screen_views", "transitions", "deeplinks"]
        let formats = [["--format", "ndjson"], ["--format", "csv"], ["--format", "csv", "--exact-csv"]]
        var plain = ""
        for table in tables {
            for format in formats { plain += try NavlogRun(["export", log, "--table", table] + format, stdin: nil).stdout }
        }
        for token in Self.ids + Self.urlParts { #expect(plain.contains(token), "\(token) reaches an unredacted export") }
        for token in Self.params { #expect(!plain.contains(token), "no table holds params") }

        for redactions in [["ids"], ["params"], ["urls"], ["ids", "params", "urls"]] {
            let hidden = Self.urlParts + (redactions.contains("ids") ? Self.ids : []) + Self.params
            for salt in [["--salt", "pepper"], []] {
                for table in tables {
                    for format in formats {
                        let arguments = ["export", log, "--table", table] + format + redactions.flatMap { ["--redact", $0] } + salt
                        let run = try NavlogRun(arguments, stdin: nil)
                        #expect(run.status == 0, "\(arguments): \(run.stderr)")
                        for token in hidden where run.stdout.contains(token) {
                            Issue.record("\(token) survives \(arguments.dropFirst(2).joined(separator: " ")): \(run.stdout)")
                        }
                    }
                }
            }
        }
    }

    @Test func redactedDeepLinksKeepSchemeWebHostAndIdSegmentsAndGroupAsNavlogDoes() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/planted.jsonl"
        try Self.writePlantedLog(to: log)
        let run = try NavlogRun("export", log, "--table", "deeplinks", "--redact", "urls", "--salt", "pepper")
        let rows = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let urls = rows.compactMap { $0["url"] as? String }, patterns = rows.compactMap { $0["pattern"] as? String }
        #expect(urls.count == 5 && patterns.count == 5)
        #expect(urls[0].hasPrefix("https://example.com/h:") && urls[0].contains("?h:"), "\(urls[0])")
        let hash = { (value: String) in "h:" + sha256Hex("pepper\u{0}" + value).prefix(16) }
        #expect(patterns[1] == "recipes://" + hash("recipe") + "/:id/" + hash("reviews"), "the salted hash the help describes: \(patterns[1])")
        let plain = try NavlogRun("deeplinks", log, "--format", "json")
        let groups = try #require((try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(Set(zip(rows.compactMap { $0["outcome"] as? String }, patterns).map { "\($0) \($1)" }).count == groups.count,
                "one redacted pattern per pattern navlog groups by")
        let dropped = try NavlogRun("export", log, "--table", "deeplinks", "--redact", "urls")
        #expect(dropped.stdout.contains(#""url":"https://example.com/*/*/*""#) && dropped.stdout.contains(#""pattern":"recipes://*/:id/*""#),
                "\(dropped.stdout)")
    }

    @Test func aSaltThatIsEmptyOrSaltsNothingIsAUsageError() throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log()
        let empty = try NavlogRun("export", log, "--table", "screen_views", "--redact", "ids", "--salt", "")
        #expect(empty.status == 64 && empty.stderr.contains("--salt must not be empty"), "\(empty.stderr)")
        let alone = try NavlogRun("export", log, "--table", "screen_views", "--salt", "pepper")
        #expect(alone.status == 64 && alone.stderr.contains("--redact"), "\(alone.stderr)")
        #expect(try NavlogRun("export", log, "--table", "screen_views", "--salt=", "--redact", "ids").status == 64)
    }
}

/// SHA-256 as hex, through the system's `sha256sum` or `shasum`: a second implementation to
/// check the package's own against.
func sha256Hex(_ text: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "command -v sha256sum >/dev/null && exec sha256sum || exec shasum -a 256"]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    guard (try? process.run()) != nil else { return "" }
    input.fileHandleForWriting.write(Data(text.utf8))
    try? input.fileHandleForWriting.close()
    let digest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return String(digest.prefix(64))
}
