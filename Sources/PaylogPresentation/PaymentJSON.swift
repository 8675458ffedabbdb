import Foundation
import PaylogDomain

/// The status view of one payment as a JSON object: what `paylog status --json` prints and
/// `GET /v1/payments/{id}` returns. Holds no personal data.
public enum PaymentJSON {
    /// The payment's current state.
    public static func object(_ p: Payment) -> [String: Any] {
        var flags: [String] = []
        if p.hadLateCallback { flags.append("late_callback") }
        if p.hadContradictingCallbacks { flags.append("contradicting_callbacks") }
        if p.hadAmountMismatch { flags.append("amount_mismatch") }
        if p.hadRequestAfterSuccess { flags.append("request_after_success") }
        if p.hadMultipleCharges { flags.append("multiple_charges") }
        let null = NSNull()
        return [
            "payment": p.id, "status": p.status.rawValue, "provider": p.provider.rawValue,
            "amount_minor": p.amount.map { $0.minorUnits as Any } ?? null,
            "currency": p.amount.map { $0.currency.code as Any } ?? null,
            "transaction_id": p.transactionID ?? null, "client_transaction_id": p.clientTransactionID ?? null,
            "error_code": p.errorCode ?? null, "version": p.version, "callbacks": p.callbackFingerprints.count,
            "api_version": p.apiVersion ?? null, "app_version": p.appVersion ?? null, "flags": flags,
        ]
    }
}
