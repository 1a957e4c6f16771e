import Foundation
import Testing
import NavigationAnalytics

/// The report's data starts where the trouble is: the sessions that crashed are replayed first,
/// and each path before a crash and each funnel step names the moments of the replays that show
/// it; its members are snake_case, its rates percentages.
@Suite struct ReportTroubleFirstTests {
    /// Six sessions: `c` crashes on reviews (a session begins after it, without its end), `d`
    /// stops at recipe; the others go home → recipe → reviews and end.
    static func log() throws -> String {
        let path = NSTemporaryDirectory() + "navlog-report-trouble-" + UUID().uuidString + ".jsonl"
        var lines: [String] = [], seq = 0, second = 0
        func event(_ session: String, _ rest: String) {
            seq += 1; second += 5
            lines.append(#"{"v":1,"seq":\#(seq),"ts":"2027-03-0\#(1 + second / 86_400)T10:\#(String(format: "%02d:%02d", second / 60 % 60, second % 60)).000Z","session":"\#(session)",\#(rest)}"#)
        }
        for session in ["a", "b", "c", "d", "e", "f"] {
            event(session, #""type":"session.start","launch":"cold""#)
            event(session, #""type":"scene.open","scene":"main""#)
            event(session, #""type":"tab.select","scene":"main","tab":"home""#)
            event(session, #""type":"push","scene":"main","stack":"home","route":{"screen":"recipe","id":"\#(session)"}"#)
            if session != "d" { event(session, #""type":"push","scene":"main","stack":"home","route":{"screen":"reviews","id":"\#(session)"}"#) }
            if session != "c" { event(session, #""type":"session.end""#) }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func data(_ options: ReportQuery.Options) throws -> (json: [String: Any], bytes: [UInt8]) {
        let path = try log()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try ReportQuery(options: options).run(over: path).json(path: path, filter: AnalyticsFilter()).bytes
        return (try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]), bytes)
    }

    @Test func theSessionsThatCrashedAreReplayedFirstThenTheLatestOthers() throws {
        let (json, _) = try Self.data(ReportQuery.Options(recent: 2, crashed: 1))
        let replays = try #require(json["replays"] as? [[String: Any]])
        #expect(replays.map { $0["id"] as? String } == ["c", "f", "e"], "c is not among the 2 latest, and is first")
        #expect(replays.map { $0["reason"] as? String } == ["crashed", "recent", "recent"])
        #expect(replays.map { $0["ending"] as? String } == ["unclean", "clean", "clean"])
        #expect(json["crashed"] as? Int == 1 && json["recent"] as? Int == 2)
        // A crashed session among the latest is replayed once, as crashed.
        let (all, _) = try Self.data(ReportQuery.Options(recent: 10, crashed: 10))
        #expect((all["replays"] as? [[String: Any]])?.map { $0["id"] as? String } == ["c", "f", "e", "d", "b", "a"])
    }

    @Test func eachCrashPathAndFunnelStepNamesTheStepsOfTheReplaysThatShowIt() throws {
        let (json, _) = try Self.data(ReportQuery.Options(recent: 2, crashed: 1, funnels: [["home", "recipe", "reviews"]]))
        let replays = try #require(json["replays"] as? [[String: Any]])
        func event(_ moment: [String: Any]) -> String? {
            let replay = replays.first { $0["id"] as? String == moment["session"] as? String }
            let steps = replay?["steps"] as? [[String: Any]], step = moment["step"] as? Int
            return step.flatMap { steps?.indices.contains($0) == true ? steps?[$0]["event"] as? String : nil }
        }
        let crash = try #require((json["crash_paths"] as? [[String: Any]])?.first)
        #expect(crash["path"] as? [String] == ["home", "recipe", "reviews"])
        let shown = try #require(crash["replays"] as? [[String: Any]])
        #expect(shown.map { $0["session"] as? String } == ["c"])
        #expect(shown.map(event) == ["tab.select main home"], "where the path's first screen began")
        let funnel = try #require((json["funnels"] as? [[[String: Any]]])?.first)
        let moments = funnel.map { ($0["replays"] as? [[String: Any]]) ?? [] }
        #expect(moments.map { $0.map { $0["session"] as? String } } == [["c", "f", "e"], ["c", "f", "e"], ["c", "f", "e"]])
        #expect(moments[1].map(event) == ["push main/home recipe(c)", "push main/home recipe(f)", "push main/home recipe(e)"])
        #expect(moments[2].map(event) == ["push main/home reviews(c)", "push main/home reviews(f)", "push main/home reviews(e)"])
    }

    @Test func theDataIsFormat2InSnakeCaseWithRatesAsPercentages() throws {
        let (json, bytes) = try Self.data(ReportQuery.Options(funnels: [["home", "recipe", "reviews"]]))
        #expect(String(decoding: bytes.prefix(11), as: UTF8.self) == #"{"format":2"#)
        // Every member the report names (not those of a state, which are the log's).
        var names: Set<String> = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, member) in object {
                    names.insert(key)
                    if !["state", "visible", "tabs", "stacks"].contains(key) { collect(member) }
                }
            } else if let list = value as? [Any] { list.forEach(collect) }
        }
        collect(json)
        #expect(names.filter { $0.contains(where: \.isUppercase) }.isEmpty, "\(names.sorted())")
        #expect(names.isSuperset(of: ["first_seq", "per_day", "crash_paths", "clock_went_back", "maximum_steps", "session_in_log",
                                      "bounce_pct", "conversion_pct", "drop_off", "median_ms"]))
        #expect(!names.contains { $0.hasSuffix("_bp") || $0.hasSuffix("Bp") })
        // Five of six sessions reach reviews: 83.33 %, written with at most two decimals; 100, not 100.0.
        let text = String(decoding: bytes, as: UTF8.self)
        let rates = text.matches(of: /"(?:bounce|conversion)_pct":([^,}]+)/).map { String($0.output.1) }
        #expect(!rates.isEmpty && rates.allSatisfy { $0 == "null" || $0.wholeMatch(of: /0|[1-9][0-9]*(\.[0-9]?[1-9])?/) != nil }, "\(rates)")
        let funnel = try #require((json["funnels"] as? [[[String: Any]]])?.first)
        #expect(funnel.map { $0["conversion_pct"] as? Double } == [100, 100, 83.33])
        #expect(text.contains(#""conversion_pct":100,"#) && text.contains(#""conversion_pct":83.33,"#))
    }
}
