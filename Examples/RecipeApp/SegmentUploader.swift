import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NavigationHistory

/// Ships a recorder's sealed segments off the device, as the recipe app does when it goes to the
/// background: an HTTP `PUT` of each segment's bytes to `base/DEVICE/NNNNNNNN.jsonl` (the
/// segment's own name), oldest first, with `Content-Type: application/x-ndjson` and the bytes'
/// SHA-256, in lowercase hexadecimal, in the `X-Content-SHA256` header for the receiver to check.
///
/// A segment is acknowledged (``Recorder/markShipped(_:)``) only on a 2xx answer. The first
/// failure — another status, a transport error, a timeout — ends the run, so that segments arrive
/// in order and the rest go next time. Delivery is at least once: a segment whose 2xx was lost, or
/// whose acknowledgement a crash interrupted, is sent again, under the same name.
public final class SegmentUploader: Sendable {
    /// The URL each device's segments go under.
    public let base: URL
    /// The install's id, ``InstallID``: the path component after `base`.
    public let device: String
    /// How long a request may wait for the server, in seconds.
    public let timeout: TimeInterval
    /// What is redacted before a segment leaves the device (``Shipment/redacted(_:salt:)``):
    /// nothing when empty.
    public let redactions: Set<Redaction>
    /// The salt of the redaction's hashes.
    public let salt: String?
    private let session: URLSession

    /// An uploader to `base/device/`, through an ephemeral session of its own (no cookies, no
    /// cache), uploading each segment redacted of `redactions` with `salt` when there are some.
    public init(base: URL, device: String, timeout: TimeInterval = 30, redactions: Set<Redaction> = [], salt: String? = nil) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        (self.base, self.device, self.timeout, self.redactions, self.salt) = (base, device, timeout, redactions, salt)
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Uploads the recorder's pending segments, oldest first, acknowledging each one answered with
    /// a 2xx, up to the first failure; seal first (``Recorder/seal()``) to ship what was just recorded.
    public func ship(from recorder: Recorder) async -> UploadReport {
        var report = UploadReport()
        var pending: [Shipment] = []
        do {
            pending = try await recorder.pendingShipments().shipments                 // sealed, oldest first
            for shipment in pending {
                let contents = redactions.isEmpty ? try shipment.contents()           // the bytes and their SHA-256
                                                  : try shipment.redacted(redactions, salt: salt)
                var request = URLRequest(url: base.appending(path: "\(device)/\(shipment.fileName)"), timeoutInterval: timeout)
                request.httpMethod = "PUT"
                request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
                request.setValue(contents.sha256, forHTTPHeaderField: "X-Content-SHA256")
                let (_, response) = try await session.upload(for: request, from: Data(contents.bytes))
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard (200..<300).contains(status) else { throw UploadFailure.Reason.status(status) }   // stop here
                try await recorder.markShipped(shipment)                              // only on a 2xx
                report.shipped.append(shipment.fileName)
            }
        } catch {
            // The segment after the last one shipped is the one that failed (none: the listing did).
            let failed = pending.dropFirst(report.shipped.count).first?.fileName
            report.failure = UploadFailure(fileName: failed, reason: UploadFailure.Reason(error))
        }
        return report
    }
}

/// What a run of ``SegmentUploader/ship(from:)`` did.
public struct UploadReport: Sendable, Equatable {
    /// The segments delivered and acknowledged, oldest first.
    public var shipped: [String]
    /// Why the run stopped before the last pending segment; nil when none is left.
    public var failure: UploadFailure?

    /// A report of `shipped`, stopped by `failure`.
    public init(shipped: [String] = [], failure: UploadFailure? = nil) {
        (self.shipped, self.failure) = (shipped, failure)
    }
}

/// Why an upload stopped: the segment it was at, and the reason.
public struct UploadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The segment that was not delivered; nil when the log could not be listed.
    public var fileName: String?
    /// What went wrong.
    public var reason: Reason

    /// The failure to deliver `fileName`, for `reason`.
    public init(fileName: String?, reason: Reason) {
        (self.fileName, self.reason) = (fileName, reason)
    }

    /// What went wrong with an upload.
    public enum Reason: Error, Sendable, Equatable {
        /// The server answered with this status, not a 2xx.
        case status(Int)
        /// The server did not answer within the timeout.
        case timedOut
        /// The connection failed or was lost before an answer (the system's description).
        case connection(String)
        /// The log could not be listed, read or acknowledged (the store's error).
        case log(String)

        /// The reason an error thrown during an upload stands for.
        init(_ error: any Error) {
            switch error {
            case let reason as Reason: self = reason
            case let error as URLError where error.code == .timedOut: self = .timedOut
            case let error as URLError: self = .connection(error.localizedDescription)
            default: self = .log("\(error)")
            }
        }
    }

    public var description: String {
        let what = fileName ?? "the log"
        switch reason {
        case .status(let status): return "\(what): the server answered \(status)"
        case .timedOut: return "\(what): no answer within the timeout"
        case .connection(let detail): return "\(what): the connection failed: \(detail)"
        case .log(let detail): return "\(what): \(detail)"
        }
    }
}
