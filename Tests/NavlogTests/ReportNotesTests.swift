import Testing
import NavigationAnalytics
@testable import navlog

/// What the report leaves out of its replays is said on standard error, with how to see it.
@Suite struct ReportNotesTests {
    @Test func aSessionCutByTheBytesAndSessionsLeftOutAreNamedWithTheCommandsThatShowThem() {
        let options = ReportQuery.Options(maximumSteps: 1500, maximumReplayBytes: 600 << 10)
        let leftOut = ReportQuery.LeftOut(cut: [.init(id: "s7", replayed: 412, events: 1003, bytesRanOut: true)],
                                          omitted: [.init(id: "s6", events: 1003), .init(id: "s5", events: 1003)])
        #expect(leftOut.notes(options, path: "app.jsonl", output: "r.html") == [
            "the replay of session s7 shows its first 412 of 1003 events (the page embeds at most 600 KiB of replays);"
                + " `navlog replay app.jsonl --session s7` shows them all",
            "left out the replays of 2 sessions s6, s5 (the page embeds at most 600 KiB of replays);"
                + " `navlog report app.jsonl -o r.html --session ID --crashed 0 --recent 0` embeds one",
        ])
    }

    @Test func sessionsLongerThanTheStepLimitAreNamedOnce() {
        let options = ReportQuery.Options(maximumSteps: 1500)
        let leftOut = ReportQuery.LeftOut(cut: [.init(id: "s1", replayed: 1500, events: 1603, bytesRanOut: false),
                                                .init(id: "s0", replayed: 1500, events: 1603, bytesRanOut: false)])
        #expect(leftOut.notes(options, path: "app.jsonl", output: "r.html") == [
            "the replays of sessions s1, s0 show their first 1500 events (the page replays at most 1500 events a session);"
                + " `navlog replay app.jsonl --session ID` shows all of one",
        ])
    }
}
