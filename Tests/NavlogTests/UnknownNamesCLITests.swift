import Foundation
import Testing

/// A screen, event type, app version, session or scene named in an option that the log never
/// holds is said — on standard error with the closest names it does hold, and in the JSON as
/// `unknown_names` right after `dropped_lines` — so that an answer empty because of a typo is not
/// taken for one; `state --scene` of a scene not open then is refused.
@Suite struct UnknownNamesCLITests {
    static let log = NavlogCLITests.examples.appendingPathComponent("tabs-and-stacks.jsonl").path
    static let deepLinks = NavlogCLITests.examples.appendingPathComponent("deep-links.jsonl").path

    /// The warning of `message` about the example log.
    static func warning(_ message: String, log: String = log, by command: String) -> String {
        "navlog \(command): warning: \(log): \(message)\n"
    }

    @Test func aFunnelStepNoViewShowsIsSaidWithTheClosestScreen() throws {
        let run = try NavlogRun("funnel", Self.log, "--steps", "home,categroy,recipe")
        #expect(run.status == 0)
        #expect(run.stderr == Self.warning("no screen 'categroy' in this log; did you mean 'category'?", by: "funnel"))
        let json = try NavlogRun("funnel", Self.log, "--steps", "home,categroy,recipe", "--format", "json")
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix(#"{"format":2,"dropped_lines":{"mode":"tolerateTornTail","count":0,"first":[]},"#
                                      + #""unknown_names":[{"option":"--steps","kind":"screen","name":"categroy","suggestions":["category"]}],"query":"funnel","#),
                "\(json.stdout.prefix(300))")
        #expect(json.stderr == run.stderr)
    }

    /// Each analytics subcommand, with its arguments after PATH.
    static let analytics: [[String]] = [
        ["screens"], ["transitions"], ["transitions", "--steps", "2"], ["paths", "--length", "2"], ["funnel", "--steps", "home,recipe"],
        ["exits"], ["bounces"], ["tabs"], ["depth"],
    ]

    @Test(arguments: analytics)
    func everyAnalyticsSubcommandSaysWhichFilteredNamesTheLogNeverHolds(_ command: [String]) throws {
        let arguments = [command[0], Self.log] + command.dropFirst() + ["--app", "3.2.1", "--session", "s2", "--scene", "mian", "--scene", "main"]
        let run = try NavlogRun(arguments, stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == Self.warning("no app version '3.2.1' in this log; did you mean '3.2.0'?", by: command[0])
                + Self.warning("no session 's2' in this log; did you mean 's1'?", by: command[0]) + Self.warning("no scene 'mian' in this log; did you mean 'main'?", by: command[0]))
        let json = try NavlogRun(arguments + ["--format", "json"], stdin: nil)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let unknown = try #require(object["unknown_names"] as? [[String: Any]])
        #expect(unknown.map { $0["option"] as? String } == ["--app", "--session", "--scene"])
        #expect(unknown.map { $0["kind"] as? String } == ["app", "session", "scene"])
        #expect(unknown.map { $0["name"] as? String } == ["3.2.1", "s2", "mian"])
        #expect(unknown.map { $0["suggestions"] as? [String] } == [["3.2.0"], ["s1"], ["main"]])
        let members = json.stdout.components(separatedBy: #""first":[]},"#)[1]
        #expect(members.hasPrefix(#""unknown_names":[{"option":"--app""#), "right after dropped_lines: \(members.prefix(100))")
    }

    @Test(arguments: analytics + [["deeplinks"]])
    func namesTheLogHoldsAreNotSaidAndTheMemberIsEmpty(_ command: [String]) throws {
        let log = command[0] == "deeplinks" ? Self.deepLinks : Self.log
        let sessions = try NavlogRun("sessions", log, "--no-index", "--format", "json").stdout
        let session = try #require(sessions.firstMatch(of: /"id":"([^"]+)"/)?.1)
        let arguments = [command[0], log] + command.dropFirst() + ["--session", String(session), "--format", "json"]
        let run = try NavlogRun(arguments, stdin: nil)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout.contains(#""first":[]},"unknown_names":[],"#), "\(run.stdout.prefix(200))")
    }

    /// A step no session reached, or a path that none took, is an answer when the log holds the screen.
    @Test func aKnownScreenTheAnswerFoundNothingOfIsNotSaid() throws {
        let funnel = try NavlogRun("funnel", Self.log, "--steps", "home,category", "--since", "2028-03-01", "--format", "json")
        #expect(funnel.status == 0)
        #expect(funnel.stdout.contains(#""unknown_names":[],"#))
        #expect(funnel.stderr == "")
        let paths = try NavlogRun("paths", Self.log, "--length", "2", "--from", "author", "--to", "home")
        #expect(paths.status == 0)
        #expect(paths.stderr == "")
    }

    @Test func deepLinksSayAnUnknownSceneToo() throws {
        let run = try NavlogRun("deeplinks", Self.deepLinks, "--scene", "mian", "--format", "json")
        #expect(run.status == 0)
        #expect(run.stdout.contains(#""unknown_names":[{"option":"--scene","kind":"scene","name":"mian","suggestions":["main"]}],"#), "\(run.stdout)")
        #expect(run.stderr == Self.warning("no scene 'mian' in this log; did you mean 'main'?", log: Self.deepLinks, by: "deeplinks"))
    }

    @Test func theScreensOfPathsFromAndToAreLookedUp() throws {
        let run = try NavlogRun("paths", Self.log, "--length", "2", "--from", "hme", "--to", "recipe")
        #expect(run.status == 0)
        #expect(run.stderr == Self.warning("no screen 'hme' in this log; did you mean 'home'?", by: "paths"))
    }

    /// Screens are looked up as the path cleaning names them: a step named after an alias is known.
    @Test func screensAreLookedUpAfterPathCleaning() throws {
        let cleaned = try NavlogRun("funnel", Self.log, "--steps", "home,content", "--alias", "^(recipe|author)$=content")
        #expect(cleaned.status == 0)
        #expect(cleaned.stderr == "")
        let gone = try NavlogRun("funnel", Self.log, "--steps", "home,recipe", "--alias", "^(recipe|author)$=content")
        #expect(gone.stderr == Self.warning("no screen 'recipe' in this log", by: "funnel"), "the alias replaced every recipe")
    }

    /// Over several logs a name is known when any of them holds it.
    @Test func overSeveralLogsANameAnyOfThemHoldsIsKnown() throws {
        let run = try NavlogRun("screens", Self.log, Self.deepLinks, "--scene", "main", "--scene", "nosuch")
        #expect(run.status == 0)
        #expect(run.stderr == "navlog screens: warning: 2 logs: no scene 'nosuch' in these logs; did you mean 'main' or 'reader'?\n",
                "of at most 3 names, all are named when none is close: \(run.stderr)")
    }

    @Test func dumpExportAndReportSayUnknownNamesOnStandardError() throws {
        let dump = try NavlogRun("dump", Self.log, "--type", "pussh", "--session", "s1")
        #expect(dump.status == 0)
        #expect(dump.stdout == "")
        #expect(dump.stderr == Self.warning("no event type 'pussh' in this log; did you mean 'push'?", by: "dump"))
        let export = try NavlogRun("export", Self.log, "--table", "screen_views", "--scene", "mian", "-o", "/dev/null")
        #expect(export.status == 0)
        #expect(export.stderr == Self.warning("no scene 'mian' in this log; did you mean 'main'?", by: "export"))
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("unknown-names-\(UUID()).html").path
        defer { try? FileManager.default.removeItem(atPath: page) }
        let report = try NavlogRun("report", Self.log, "-o", page, "--funnel", "home,categroy", "--app", "3.2")
        #expect(report.status == 0)
        #expect(report.stderr.contains(Self.warning("no screen 'categroy' in this log; did you mean 'category'?", by: "report")), "\(report.stderr)")
        #expect(report.stderr.contains(Self.warning("no app version '3.2' in this log; did you mean '3.2.0'?", by: "report")), "\(report.stderr)")
    }

    @Test func stateOfASceneNotOpenThenIsRefusedNamingTheOpenScenes() throws {
        let typo = try NavlogRun("state", Self.log, "--scene", "mian", "--no-index")
        #expect(typo.status == 65)
        #expect(typo.stdout == "")
        #expect(typo.stderr == "navlog state: error: \(Self.log): scene 'mian' is not open after seq 25; did you mean 'main'? (open then: 'main')\n")
        let early = try NavlogRun("state", Self.log, "--scene", "main", "--at", "0", "--no-index", "--format", "json")
        #expect(early.status == 65)
        #expect(early.stderr == "navlog state: error: \(Self.log): scene 'main' is not open before the first event (no scene is open then)\n")
        let open = try NavlogRun("state", Self.log, "--scene", "main", "--no-index")
        #expect(open.status == 0)
        #expect(open.stdout.contains("scene main"))
    }

    @Test func replayOfAnUnknownSessionSuggestsTheClosest() throws {
        let run = try NavlogRun("replay", Self.log, "--session", "s2", "--no-index")
        #expect(run.status == 66)
        #expect(run.stderr.contains("no session 's2' in this log; did you mean 's1'?"), "\(run.stderr)")
    }
}
