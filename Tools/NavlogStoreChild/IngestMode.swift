// The `ingest` mode of NavlogStoreChild (see main.swift): a FleetIngest run that kills itself with
// SIGKILL at its Kth step that changes the fleet.
import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ingest INBOX --into FLEET [--gap-after-ms MS] --kill-at-step K`: runs `navlog ingest`'s
/// library call over INBOX, printing `step NAME` after each step (an ``IngestStep``), killed by
/// SIGKILL right after step K; prints `done` when it ran to its end.
func ingest(_ inbox: String, _ arguments: [String]) throws {
    guard let fleet = option("--into", in: arguments) else { fatalError("ingest needs --into FLEET") }
    let killAt = Int(option("--kill-at-step", in: arguments) ?? "") ?? 0
    var ingest = FleetIngest(fleet: fleet, gapAfter: option("--gap-after-ms", in: arguments).flatMap(Int64.init).map { .milliseconds($0) })
    let steps = Locked(0)
    ingest.step = { step in
        let count = steps.withLock { count -> Int in
            count += 1
            return count
        }
        say("step \(step.rawValue)")
        if count == killAt { kill(getpid(), SIGKILL) }
    }
    _ = try ingest.run(inboxes: [inbox])
    say("done")
}
