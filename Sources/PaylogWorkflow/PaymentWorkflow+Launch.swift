import PaylogDomain
import PaylogProviders
import PaylogStore

extension PaymentWorkflow {
    /// A new routing reference: 128 random bits as 32 lowercase hex digits. It is the Square `state` the web
    /// callback is routed by, so it must be unguessable; it fits every provider's reference limit (≤ 128).
    public static func mintReference() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }

    /// Builds the launch URL for `spec` (minting a reference when it has none), records `Requested` as built by
    /// paylog, and returns the URL. Refuses (``WorkflowError/refusedLaunch(_:)``) a URL that would break the
    /// provider's contract, before anything is recorded.
    public func requestLaunch(_ spec: LaunchSpec, observedAt: Timestamp) async throws(WorkflowError) -> LaunchOutcome {
        var spec = spec
        let reference = spec.reference ?? PaymentWorkflow.mintReference()
        spec.reference = reference
        if spec.provider == .izettle && spec.title == nil { spec.title = "Payment \(spec.paymentID.rawValue)" }
        let url: String
        let request: LaunchRequest
        do {
            url = try Providers.buildLaunchURL(for: spec)
            request = try Providers.parseLaunch(url, appVersion: spec.appVersion)
        } catch {
            throw .refusedLaunch("\(error)")
        }
        let outcome = try await record(
            .request(request, builtByPaylog: true), payment: spec.paymentID.rawValue, observedAt: observedAt, evidence: url)
        return LaunchOutcome(outcome: outcome, launchURL: url, reference: reference)
    }
}
